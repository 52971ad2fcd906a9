import Testing
@testable import TodoPostgres
