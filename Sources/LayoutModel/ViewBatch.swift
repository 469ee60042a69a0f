import CPrefetch

/// Views queued for a pass that visits them in order, each held by a retain of its own.
///
/// The entries are unmanaged so that the pass releases each view as it visits it, while the
/// view's lines are in cache. A `[View]` released its views afterwards, in a second loop
/// over the batch: in the first display pass of a large tree (every view is queued once) that
/// loop was a cache miss per view, and the display pass with it a tenth of a cold bottom-up
/// build of a feed of 100,000 cells.
///
/// Not copyable, so that no two batches release the same views, and stored inline in its
/// window (a class would cost a retain and a release of the batch per view queued).
struct ViewBatch: ~Copyable {
  private var entries: ContiguousArray<Unmanaged<View>> = []

  init() {}

  /// Queues `view`, retained until the batch visits it or is freed.
  mutating func append(_ view: View) {
    entries.append(.passRetained(view))
  }

  /// Hands every view to `body` in queue order, releasing each after its visit, and leaves
  /// the batch empty with its capacity kept. Nothing `body` does may reach this batch
  /// (append to it, swap it, drain it): a pass drains a local batch it took out of the
  /// queue, so that views flagged meanwhile, and nested passes, use others.
  mutating func drain(_ body: (View) -> Void) {
    entries.withUnsafeBufferPointer { views in
      let count = views.count
      // A long batch (the first pass over a large tree) has the lines the visit reads and
      // writes of the view `lead` places on requested now: the reference count, the flags
      // and the window link. A short one is in cache.
      let prefetching = count >= Self.prefetchMinimum
      for i in 0..<count {
        if prefetching, i &+ Self.lead < count {
          let object = views[i &+ Self.lead].toOpaque()
          cprefetch_write(object)
          cprefetch_write(object + 64)
          cprefetch_read(object + 128)
        }
        body(views[i].takeRetainedValue())
      }
    }
    entries.removeAll(keepingCapacity: true)
  }

  private static var lead: Int { 32 }
  private static var prefetchMinimum: Int { 4096 }

  deinit {
    for view in entries { view.release() }
  }
}
