"""A real-looking list, drawn: saved as PNG to $TODOD_WEB_SHOT when it is set."""
import os
import unittest

from webharness import WebTestCase

ITEMS = [
    "buy milk +errands due:today",
    "buy stamps +errands pro:post",
    "pay rent pro:home pri:H due:yesterday",
    "water the tulips +garden pro:home.garden due:tomorrow",
    "call mum +phone pri:M",
    "book a dentist appointment +health due:fri",
    "review pull request +work pro:todod pri:H",
    "write release notes +work pro:todod due:\"in 3 days\"",
    "renew passport pro:admin pri:L due:2027-01-15",
    "read a book",
    "plan the weekend +family",
    "take out the recycling +home recur:weekly due:tomorrow",
]


class Screenshot(WebTestCase):
    browser = True

    def test_real_list(self):
        ids = [self.stack.add(text) for text in ITEMS]
        self.stack.todoctl("done", str(ids[1]))   # one done
        self.wait_until(lambda: len(self.rows()), lambda n: n == len(ITEMS), f"{len(ITEMS)} rows")
        rows = self.wait_until(self.rows, lambda rs: sum(r["completed"] for r in rs) == 1, "one row done")
        self.assertEqual(sum(r["overdue"] for r in rows), 1, "one overdue row")
        self.assertTrue(any(r["fields"] for r in rows), "fields shown")
        self.assertTrue(any(r["due"] for r in rows), "due dates shown")
        self.driver.execute_script("document.activeElement && document.activeElement.blur()")
        png = self.driver.get_screenshot_as_png()
        self.assertEqual(png[:8], b"\x89PNG\r\n\x1a\n")
        self.assertGreater(len(png), 10_000, "a screenshot with something in it")
        target = os.environ.get("TODOD_WEB_SHOT")
        if target:
            with open(target, "wb") as file:
                file.write(png)
            print(f"\nscreenshot: {target}")


if __name__ == "__main__":
    unittest.main()
