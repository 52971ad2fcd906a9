import Testing
import WebAccess

/// web.conf as todod-web and `todoctl web` both read it.
@Suite struct WebSettingsTests {
    @Test func defaultsWithoutTheFile() throws {
        let settings = try WebSettings.load(from: "/nonexistent/todod/web.conf")
        #expect(settings == WebSettings(port: 8636, hostNames: []))
    }

    @Test func readsPortAndHostNamesWithCommentsAndBlanks() throws {
        let text = "# mine\n\nport = 9000\n  host = Todo.Example.org\nhost=lan-box\n"
        let settings = try WebSettings(parsing: text, file: "web.conf")
        #expect(settings.port == 9000)
        #expect(settings.hostNames == ["todo.example.org", "lan-box"])
    }

    @Test(arguments: [
        ("port = 0", "web.conf line 1: port must be a number from 1 to 65535, not “0”"),
        ("port = http", "web.conf line 1: port must be a number from 1 to 65535, not “http”"),
        ("\nhost = evil.example/path", "web.conf line 2: host must be a host name such as todo.example.org, not “evil.example/path”"),
        ("listen 8636", "web.conf line 1: expected 'key = value', got 'listen 8636'"),
        ("colour = red", "web.conf line 1: unknown setting 'colour' (port, host)"),
    ])
    func namesTheLineAndTheProblem(_ text: String, _ message: String) {
        #expect(throws: WebAccessError(message)) { try WebSettings(parsing: text, file: "web.conf") }
    }

    @Test func thePageAddressCarriesThePortAndTheKey() {
        #expect(WebSettings(port: 9000).pageURL(token: "abc") == "http://127.0.0.1:9000/?token=abc")
    }
}
