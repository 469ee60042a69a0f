/// Scenarios named after the benchmarks of this project's peers, so a figure here can be set
/// beside theirs: WWDC 2018's "High Performance Auto Layout" (session 220) cases, taffy's
/// layout benchmarks, and LayoutFrameworkBenchmark's feed. Each maps to a built-in shape,
/// size and mutation (`layout-bench run --preset NAME`); what differs from the original is
/// said in ``source``.
public enum PeerScenario: String, CaseIterable, Sendable, ReportName {
  case wwdcLongRow = "wwdc-long-row"
  case wwdcDeep = "wwdc-deep"
  case wwdcGrid = "wwdc-grid"
  case wwdcMovingTree = "wwdc-moving-tree"
  case wwdcRemoval = "wwdc-removal"
  case taffySuperDeep = "taffy-super-deep"
  case taffyWide = "taffy-wide"
  case lfbFeed = "lfb-feed"

  /// The scenario it runs.
  public var scenario: Scenario {
    switch self {
    case .wwdcLongRow: Scenario(shape: .wide, size: 1000, mutation: .text)
    case .wwdcDeep: Scenario(shape: .deep, size: 300, mutation: .text)
    case .wwdcGrid: Scenario(shape: .grid, size: 300, mutation: .scroll)
    case .wwdcMovingTree: Scenario(shape: .balanced, size: 1000, mutation: .reparent)
    case .wwdcRemoval: Scenario(shape: .balanced, size: 1000, mutation: .removal)
    case .taffySuperDeep: Scenario(shape: .deep, size: 1000, mutation: .resize)
    case .taffyWide: Scenario(shape: .wide, size: 100_000, mutation: .resize)
    case .lfbFeed: Scenario(shape: .feed, size: 100, mutation: .idle)
    }
  }

  /// Where it comes from, and how this one differs.
  public var source: String {
    switch self {
    case .wwdcLongRow:
      "WWDC 2018 session 220, a long row of views each placed after the previous: here a "
        + "stack of 1,000 labels placed one below the other (the same chain to a solver), "
        + "one text change per tick"
    case .wwdcDeep:
      "WWDC 2018 session 220, a deep hierarchy: 300 nested stacks, one text change per tick"
    case .wwdcGrid:
      "WWDC 2018 session 220, a collection view: 300 items in rows of three, scrolling"
    case .wwdcMovingTree:
      "WWDC 2018 session 220, views moving in the hierarchy: a label moves to another "
        + "container of a 1,000-view tree every tick, keeping its views and constraints"
    case .wwdcRemoval:
      "WWDC 2018 session 220, removing a hierarchy: a quarter of a 1,000-view tree leaves "
        + "on one tick and comes back (built anew) on the next"
    case .taffySuperDeep:
      "taffy's super-deep benchmark: 1,000 levels (here 2,001 views: a caption beside each "
        + "level), laid out again every tick by a window resize; cold layout is the build"
    case .taffyWide:
      "taffy's wide benchmark: 100,000 children of one node, laid out again every tick by a "
        + "window resize; cold layout is the build"
    case .lfbFeed:
      "LayoutFrameworkBenchmark's feed: 100 cells built and laid out cold (its figure); "
        + "`sweep --preset lfb-feed --sizes 10,20,30,50,100` gives its 10 to 100 cells"
    }
  }
}
