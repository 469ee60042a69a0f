import Foundation
import JemallocProbe
import LayoutHarness
import Screens

// Measures the login screen built in Swift and, given a path, a scene file, with every
// strategy; prints the table and writes a JSON report that `layout-bench compare` reads.
//
//   swift run my-screens [--ticks N] [--scene FILE] [--json FILE] [--save-scene FILE]

var ticks = 60
var scenePath: String?
var jsonPath: String?
var savePath: String?
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
  switch flag {
  case "--ticks": ticks = arguments.popFirst().flatMap(Int.init) ?? ticks
  case "--scene": scenePath = arguments.popFirst()
  case "--json": jsonPath = arguments.popFirst()
  case "--save-scene": savePath = arguments.popFirst()
  default:
    FileHandle.standardError.write(
      Data("usage: my-screens [--ticks N] [--scene FILE] [--json FILE] [--save-scene FILE]\n".utf8))
    exit(1)
  }
}

do {
  let settings = RunSettings(ticks: ticks, warmupTicks: 5, minimumTicks: ticks)
  var scenes = [try LoginScreen.file()]
  if let scenePath { scenes.append(try SceneFile.load(path: scenePath)) }
  if let savePath {
    // The Swift-built screen as a scene file, for `layout-bench run --scene`.
    let document = SceneFile.document(
      name: scenes[0].name, scene: LoginScreen.scene(), workload: scenes[0].workload)
    try document.prettyText.write(toFile: savePath, atomically: true, encoding: .utf8)
  }
  var results: [RunResult] = []
  for scene in scenes {
    results += try scene.measure(settings: settings, probe: JemallocProbe()).results
  }
  let report = RunReport(
    hz: settings.hz, measurementOverheadNs: ScenarioRunner.measureOverhead(),
    environment: ["program": "my-screens"], results: results)
  print(ReportTable.render(report, style: .terminal), terminator: "")
  if let jsonPath {
    try ReportFile.encode(report).write(toFile: jsonPath, atomically: true, encoding: .utf8)
  }
} catch {
  FileHandle.standardError.write(Data("my-screens: \(error)\n".utf8))
  exit(1)
}
