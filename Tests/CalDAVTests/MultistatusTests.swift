@testable import CalDAV
import Foundation
import Testing

extension CalDAVServerTests {
@Suite("multistatus reading")
struct MultistatusTests {
    @Test("elements are matched by namespace, whatever the prefixes")
    func prefixesMeanNothing() throws {
        let defaultNamespace = """
            <?xml version='1.0' encoding='utf-8'?>
            <multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><sync-token>t1</sync-token>
            <response><href>/a.ics</href><propstat><prop><getetag>"1"</getetag><C:calendar-data>BEGIN:VCALENDAR
            END:VCALENDAR</C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
            """
        let oddPrefixes = """
            <x:multistatus xmlns:x="DAV:" xmlns:y="urn:ietf:params:xml:ns:caldav"><x:response><x:href>/a.ics</x:href>\
            <x:propstat><x:status>HTTP/1.1 200 OK</x:status><x:prop><x:getetag>"1"</x:getetag>\
            <y:calendar-data><![CDATA[BEGIN:VCALENDAR
            END:VCALENDAR]]></y:calendar-data></x:prop></x:propstat></x:response><x:sync-token>t1</x:sync-token></x:multistatus>
            """
        let first = try Multistatus.parse(Data(defaultNamespace.utf8))
        let second = try Multistatus.parse(Data(oddPrefixes.utf8))
        for parsed in [first, second] {
            #expect(parsed.syncToken == "t1")
            #expect(parsed.responses.count == 1)
            #expect(parsed.responses[0].hrefs == ["/a.ics"])
            #expect(parsed.responses[0].property(DAVName.getetag)?.trimmedText == "\"1\"")
            #expect(parsed.responses[0].property(DAVName.calendarData)?.text == "BEGIN:VCALENDAR\nEND:VCALENDAR")
        }
    }

    @Test("an element in the wrong namespace is not the one asked for")
    func namespaceMatters() throws {
        let xml = """
            <D:multistatus xmlns:D="DAV:" xmlns:X="urn:example"><D:response><D:href>/a.ics</D:href>\
            <D:propstat><D:status>HTTP/1.1 200 OK</D:status><D:prop><X:getetag>"no"</X:getetag></D:prop></D:propstat>\
            </D:response></D:multistatus>
            """
        let parsed = try Multistatus.parse(Data(xml.utf8))
        #expect(parsed.responses[0].property(DAVName.getetag) == nil)
    }

    @Test("properties under a 404 propstat are not there")
    func failedPropstat() throws {
        let xml = """
            <D:multistatus xmlns:D="DAV:"><D:response><D:href>/a/</D:href>\
            <D:propstat><D:status>HTTP/1.1 404 Not Found</D:status><D:prop><D:displayname/></D:prop></D:propstat>\
            </D:response></D:multistatus>
            """
        let response = try Multistatus.parse(Data(xml.utf8)).responses[0]
        #expect(response.property(DAVName.displayname) == nil)
        #expect(response.overallStatus == 404)
    }

    @Test("garbage is an error that says what was wrong, never a crash")
    func garbage() {
        let cases: [(String, String)] = [
            ("", "empty"),
            ("not xml at all", "not well-formed"),
            (#"<D:multistatus xmlns:D="DAV:"><D:response>"#, "not well-formed"),
            (#"<D:error xmlns:D="DAV:"/>"#, "{DAV:}multistatus"),
            (#"<D:multistatus xmlns:D="DAV:"><D:response><D:href> </D:href><D:status>HTTP/1.1 200 OK</D:status></D:response></D:multistatus>"#, "href"),
            (#"<D:multistatus xmlns:D="DAV:"><D:response><D:href>/a</D:href></D:response></D:multistatus>"#, "neither"),
            (#"<D:multistatus xmlns:D="DAV:"><D:response><D:href>/a</D:href><D:propstat/></D:response></D:multistatus>"#, "no {DAV:}status"),
            (String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100), "nested"),
        ]
        for (xml, expected) in cases {
            #expect {
                _ = try Multistatus.parse(Data(xml.utf8))
            } throws: { error in
                (error as? XMLTreeError)?.reason.contains(expected) == true
            }
        }
    }

    @Test("request bodies escape what they carry")
    func escaping() {
        let body = DAVRequestBodies.syncCollection(token: "a<b>&\"c'")
        #expect(body.contains("<D:sync-token>a&lt;b&gt;&amp;&quot;c&apos;</D:sync-token>"))
        #expect(DAVRequestBodies.syncCollection(token: nil).contains("<D:sync-token/>"))
        let multiget = DAVRequestBodies.calendarMultiget(hrefs: ["/a&b.ics"])
        #expect(multiget.contains("<D:href>/a&amp;b.ics</D:href>"))
        for xml in [body, multiget, DAVRequestBodies.probe, DAVRequestBodies.listing] {
            #expect((try? XMLElementTree.parse(Data(xml.utf8))) != nil, "well-formed: \(xml)")
        }
    }
}
}
