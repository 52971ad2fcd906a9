import Testing

/// The sync's end-to-end suites, one test at a time: each starts a CalDAV
/// server, python3-caldav "phones", todod and todod-sync. Run beside one
/// another and the rest of the tests on two cores, they starved the todods
/// other tests start of the CPU past their 30 s start-up limit.
@Suite(.serialized) enum SyncEndToEndTests {}
