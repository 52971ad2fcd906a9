/// The Python run against a server: making its collection, and the "phone".
enum PythonScripts {
    /// MKCALENDAR on $CALDAV_URL for a to-do list, with urllib alone (the
    /// server is under test, not python-caldav). Fails loudly unless 201.
    static let makeTaskCalendar = """
        import base64, os, ssl, sys, urllib.error, urllib.request
        url = os.environ["CALDAV_URL"]
        ca = os.environ.get("CALDAV_CA_FILE")
        context = ssl.create_default_context(cafile=ca) if ca else None
        credentials = base64.b64encode((os.environ["CALDAV_USER"] + ":" + os.environ["CALDAV_PASSWORD"]).encode()).decode()
        body = (b'<?xml version="1.0" encoding="utf-8"?>'
                b'<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>'
                b'<D:displayname>Tasks</D:displayname>'
                b'<C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set>'
                b'</D:prop></D:set></C:mkcalendar>')
        request = urllib.request.Request(url, data=body, method="MKCALENDAR", headers={
            "Content-Type": "application/xml; charset=utf-8", "Authorization": "Basic " + credentials})
        try:
            with urllib.request.urlopen(request, context=context, timeout=30) as response:
                if response.status != 201:
                    sys.exit("MKCALENDAR %s answered %d" % (url, response.status))
        except urllib.error.HTTPError as error:
            sys.exit("MKCALENDAR %s answered %d: %s" % (url, error.code, error.read()[:500]))
        """

    /// Put before every phone script: `client` (a caldav.DAVClient logged in
    /// as the test user, trusting the test CA) and `calendar` (the test
    /// collection), from the environment.
    static let phonePrelude = """
        import os, sys
        import caldav
        CALDAV_URL = os.environ["CALDAV_URL"]
        client = caldav.DAVClient(
            url=CALDAV_URL, username=os.environ["CALDAV_USER"], password=os.environ["CALDAV_PASSWORD"],
            ssl_verify_cert=os.environ.get("CALDAV_CA_FILE") or True)
        calendar = client.calendar(url=CALDAV_URL)

        """
}
