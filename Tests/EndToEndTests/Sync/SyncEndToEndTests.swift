import Testing

/// The sync's end-to-end suites, one test at a time in each of two lanes:
/// each test starts a CalDAV server, python3-caldav "phones", todod and
/// todod-sync. All run beside one another and the rest of the tests on two
/// cores, they starved the todods other tests start of the CPU past their
/// 30 s start-up limit; one lane alone was the whole suite's longest path
/// (280 s). The faults take about as long as all the rest together, so they
/// have a lane of their own.
@Suite(.serialized) enum SyncEndToEndTests {}

/// The second lane: `SyncFaultsEndToEndTests`.
@Suite(.serialized) enum SyncFaultsLane {}
