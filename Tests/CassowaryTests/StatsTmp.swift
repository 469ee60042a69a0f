import Cassowary
import Testing

@Test func statsTmp() throws {
  var refusedFast = 0, total = 0, entries = 0, required = 0, vars = 0, edits = 0, phaseOneLike = 0
  for seed in UInt64(0xE000)..<0xE000 + 1000 {
    let system = LayoutSystem(seed: seed)
    entries += system.entries.count
    required += system.entries.filter { $0.constraint.strength.isRequired }.count
    vars += system.variables.count
    edits += system.edits.count
    let d = try LayoutDriver(system)
    for _ in 0..<6 {
      let live = d.entries.indices.filter { d.active[$0] }
      let required = live.filter { d.strengths[$0].isRequired }
      let pickRequired = !required.isEmpty && d.rng.chance(0.5)
      guard let i = d.rng.pick(pickRequired ? required : live) else { break }
      let k = d.constants[i] + d.rng.double(pickRequired ? -400...400 : -60...60)
      total += 1
      do { try d.solver.setConstant(k, of: d.entries[i].constraint); d.constants[i] = k } catch { refusedFast += 1 }
    }
  }
  print("STATS entries/sys \(Double(entries)/1000) required \(Double(required)/1000) vars \(Double(vars)/1000) edits \(Double(edits)/1000) setConstant refused \(refusedFast)/\(total)")
}
