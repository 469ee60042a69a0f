import LayoutHarness
import LayoutModel

/// A login screen built in Swift (a user's own screens would live here): a logo, two fields with captions, a button row, and a
/// footnote, in stacks (so all three strategies can lay it out).
public enum LoginScreen {
  public static func scene() -> Scene {
    var nextID = 0
    func node(_ name: String, _ content: Scene.Content) -> Scene.Node {
      nextID += 1
      return Scene.Node(id: nextID, name: name, content: content)
    }
    func field(_ name: String, caption: String, value: String) -> Scene.Node {
      node(
        name,
        .stack(
          .init(axis: .vertical, spacing: 4),
          children: [
            node("\(name).caption", .label(text: caption, style: .caption)),
            node("\(name).value", .label(text: value, style: .body)),
          ]))
    }
    let root = node(
      "login",
      .stack(
        .init(
          axis: .vertical, spacing: 16, insets: EdgeInsets(top: 60, left: 24, bottom: 24, right: 24)
        ),
        children: [
          node("logo", .image(Size(width: 96, height: 96))),
          node("title", .label(text: "Sign in to measure your frames", style: .title)),
          field("email", caption: "Email", value: "grace@example.com"),
          field("password", caption: "Password", value: "••••••••••"),
          node(
            "buttons",
            .stack(
              .init(axis: .horizontal, spacing: 12, alignment: .center),
              children: [
                node("forgot", .label(text: "Forgot?", style: .caption)),
                node("signIn", .image(Size(width: 120, height: 44))),
              ])),
          node(
            "footnote",
            .label(text: "By signing in you agree to count every tick.", style: .caption)),
        ]))
    return Scene(windowSize: Size(width: 390, height: 844), root: root)
  }

  /// Each tick: the email field changes as someone types, and the error line under the
  /// password comes and goes (a label whose text changes length).
  public static func file() throws -> SceneFile {
    try SceneFile(
      name: "login", scene: scene(),
      workload: .scripted(
        seed: 1,
        steps: [
          TickStep(
            .text(
              labels: ["email.value"],
              texts: ["g", "gr", "grace@", "grace@example", "grace@example.com"], perTick: 1),
            path: "ticks.steps[0]"),
          TickStep(
            .text(
              labels: ["footnote"],
              texts: [
                "By signing in you agree to count every tick.",
                "Wrong password: three more tries before the account locks for fifteen minutes.",
              ], perTick: 1),
            path: "ticks.steps[1]"),
        ]))
  }
}
