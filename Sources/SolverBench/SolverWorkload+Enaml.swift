import Cassowary
import ConstraintScript

// kiwi's enaml benchmark system (benchmarks/enaml_like_benchmark.cpp in nucleic/kiwi),
// restated in the constraint script syntax: the same 111 constraints in the same order, with
// its custom strengths `create(0, 1, 0, 1.25)` = 1250 and `create(0, 100, 0)` = 100000.

extension SolverWorkload {
  /// The window sizes the ticks cycle through, suggested to `width` and `height`.
  static let enamlSizes: [(Double, Double)] = [
    (400, 600), (600, 400), (800, 1200), (1200, 800), (400, 800), (800, 400),
  ]

  /// Variables in kiwi's declaration order (after the edit variables width and height).
  static let enamlVariables = [
    "left", "top", "contents_top", "contents_bottom", "contents_left", "contents_right",
    "midline", "ctleft", "ctheight", "cttop", "ctwidth", "lb1left", "lb1height", "lb1top",
    "lb1width", "lb2left", "lb2height", "lb2top", "lb2width", "lb3left", "lb3height", "lb3top",
    "lb3width", "fl1left", "fl1height", "fl1top", "fl1width", "fl2left", "fl2height", "fl2top",
    "fl2width", "fl3left", "fl3height", "fl3top", "fl3width",
  ]

  static let enamlConstraints = """
    left + -0 >= 0 @required
    height + 0 == 0 @medium
    top + -0 >= 0 @required
    width + -0 >= 0 @required
    height + -0 >= 0 @required
    -top + contents_top + -10 == 0 @required
    lb3height + -16 == 0 @strong
    lb3height + -16 >= 0 @strong
    ctleft + -0 >= 0 @required
    cttop + -0 >= 0 @required
    ctwidth + -0 >= 0 @required
    ctheight + -0 >= 0 @required
    fl3left + -0 >= 0 @required
    ctheight + -24 >= 0 @100000
    ctwidth + -1.67772e+07 <= 0 @100000
    ctheight + -24 <= 0 @100000
    fl3top + -0 >= 0 @required
    fl3width + -0 >= 0 @required
    fl3height + -0 >= 0 @required
    lb1width + -67 == 0 @weak
    lb2width + -0 >= 0 @required
    lb2height + -0 >= 0 @required
    fl2height + -0 >= 0 @required
    lb3left + -0 >= 0 @required
    fl2width + -125 >= 0 @strong
    fl2height + -21 == 0 @strong
    fl2height + -21 >= 0 @strong
    lb3top + -0 >= 0 @required
    lb3width + -0 >= 0 @required
    fl1left + -0 >= 0 @required
    fl1width + -0 >= 0 @required
    lb1width + -67 >= 0 @strong
    fl2left + -0 >= 0 @required
    lb2width + -66 == 0 @weak
    lb2width + -66 >= 0 @strong
    lb2height + -16 == 0 @strong
    fl1height + -0 >= 0 @required
    fl1top + -0 >= 0 @required
    lb2top + -0 >= 0 @required
    -lb2top + lb3top + -lb2height + -10 == 0 @1250
    -lb3top + -lb3height + fl3top + -10 >= 0 @required
    -lb3top + -lb3height + fl3top + -10 == 0 @1250
    contents_bottom + -fl3height + -fl3top + -0 == 0 @1250
    fl1top + -contents_top + 0 >= 0 @required
    fl1top + -contents_top + 0 == 0 @1250
    contents_bottom + -fl3height + -fl3top + -0 >= 0 @required
    -left + -width + contents_right + 10 == 0 @required
    -top + -height + contents_bottom + 10 == 0 @required
    -left + contents_left + -10 == 0 @required
    lb3left + -contents_left + 0 == 0 @1250
    fl1left + -midline + 0 == 0 @strong
    fl2left + -midline + 0 == 0 @strong
    ctleft + -midline + 0 == 0 @strong
    fl1top + 0.5 * fl1height + -lb1top + -0.5 * lb1height + 0 == 0 @strong
    lb1left + -contents_left + 0 >= 0 @required
    lb1left + -contents_left + 0 == 0 @1250
    -lb1left + fl1left + -lb1width + -10 >= 0 @required
    -lb1left + fl1left + -lb1width + -10 == 0 @1250
    -fl1left + contents_right + -fl1width + -0 >= 0 @required
    width + 0 == 0 @medium
    -fl1top + fl2top + -fl1height + -10 >= 0 @required
    -fl1top + fl2top + -fl1height + -10 == 0 @1250
    cttop + -fl2top + -fl2height + -10 >= 0 @required
    -ctheight + -cttop + fl3top + -10 >= 0 @required
    contents_bottom + -fl3height + -fl3top + -0 >= 0 @required
    cttop + -fl2top + -fl2height + -10 == 0 @1250
    -fl1left + contents_right + -fl1width + -0 == 0 @1250
    -lb2top + -0.5 * lb2height + fl2top + 0.5 * fl2height + 0 == 0 @strong
    -contents_left + lb2left + 0 >= 0 @required
    -contents_left + lb2left + 0 == 0 @1250
    fl2left + -lb2width + -lb2left + -10 >= 0 @required
    -ctheight + -cttop + fl3top + -10 == 0 @1250
    contents_bottom + -fl3height + -fl3top + -0 == 0 @1250
    lb1top + -0 >= 0 @required
    lb1width + -0 >= 0 @required
    lb1height + -0 >= 0 @required
    fl2left + -lb2width + -lb2left + -10 == 0 @1250
    -fl2left + -fl2width + contents_right + -0 == 0 @1250
    -fl2left + -fl2width + contents_right + -0 >= 0 @required
    lb3left + -contents_left + 0 >= 0 @required
    lb1left + -0 >= 0 @required
    0.5 * ctheight + cttop + -lb3top + -0.5 * lb3height + 0 == 0 @strong
    ctleft + -lb3left + -lb3width + -10 >= 0 @required
    -ctwidth + -ctleft + contents_right + -0 >= 0 @required
    ctleft + -lb3left + -lb3width + -10 == 0 @1250
    fl3left + -contents_left + 0 >= 0 @required
    fl3left + -contents_left + 0 == 0 @1250
    -ctwidth + -ctleft + contents_right + -0 == 0 @1250
    -fl3left + contents_right + -fl3width + -0 == 0 @1250
    -contents_top + lb1top + 0 >= 0 @required
    -contents_top + lb1top + 0 == 0 @1250
    -fl3left + contents_right + -fl3width + -0 >= 0 @required
    lb2top + -lb1top + -lb1height + -10 >= 0 @required
    -lb2top + lb3top + -lb2height + -10 >= 0 @required
    lb2top + -lb1top + -lb1height + -10 == 0 @1250
    fl1height + -21 == 0 @strong
    fl1height + -21 >= 0 @strong
    lb2left + -0 >= 0 @required
    lb2height + -16 >= 0 @strong
    fl2top + -0 >= 0 @required
    fl2width + -0 >= 0 @required
    lb1height + -16 >= 0 @strong
    lb1height + -16 == 0 @strong
    fl3width + -125 >= 0 @strong
    fl3height + -21 == 0 @strong
    fl3height + -21 >= 0 @strong
    lb3height + -0 >= 0 @required
    ctwidth + -119 >= 0 @100000
    lb3width + -24 == 0 @weak
    lb3width + -24 >= 0 @strong
    fl1width + -125 >= 0 @strong
    """

  /// The constraints parsed once, so that building the system does not time the parser.
  static let enamlParsed: [(LinearForm, Relation, Strength)] = {
    let script = try! Script(parsing: enamlConstraints, file: "enaml")
    return script.statements.map { statement in
      guard case .constraint(_, let form, let relation, let strength) = statement.kind else {
        preconditionFailure("the enaml system holds constraints only")
      }
      return (form, relation, strength)
    }
  }()

  static func enaml(_ representation: Solver.Representation) -> SolverSystem {
    let s = Solver(representation: representation)
    let width = s.makeVariable("width")
    let height = s.makeVariable("height")
    var variables = ["width": width, "height": height]
    for name in enamlVariables { variables[name] = s.makeVariable(name) }
    try! s.addEditVariable(width, strength: .strong)
    try! s.addEditVariable(height, strength: .strong)
    for (form, relation, strength) in enamlParsed {
      var expression = Expression(constant: form.constant)
      for (name, c) in zip(form.names, form.coefficients) where c != 0 {
        expression.terms.append(Term(variables[name]!, c))
      }
      try! s.addConstraint(Constraint(expression, relation, strength: strength))
    }
    return SolverSystem(solver: s) { t in
      let (w, h) = enamlSizes[t % 6]
      try! s.suggestValue(width, w)
      try! s.suggestValue(height, h)
    }
  }
}
