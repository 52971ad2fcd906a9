import Testing

/// The client's suites, one test at a time: most start a real Radicale or
/// Xandikos, which beside the rest of the tests on two cores would starve
/// them.
@Suite(.serialized) enum CalDAVServerTests {}
