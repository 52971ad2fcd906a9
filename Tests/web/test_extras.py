"""What todod has beyond TodoMVC: fields, overdue rows, undo/redo, the query box, views."""
import re
import unittest

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from webharness import WebTestCase

BUTTON_JS = r"""
const b = document.querySelector(arguments[0]);
if (!b) return null;
return {text: b.textContent.replace(/\s+/g, ' ').trim(), disabled: b.disabled,
        shown: b.getClientRects().length > 0 && getComputedStyle(b).visibility !== 'hidden'};
"""

COLOURS_JS = r"""
const li = arguments[0];
const pick = el => el ? [getComputedStyle(el).color, getComputedStyle(el).backgroundColor,
                         getComputedStyle(el).borderLeftColor, getComputedStyle(el).borderTopColor] : [];
return [].concat(pick(li), pick(li.querySelector('label')), pick(li.querySelector('span.due')));
"""


def rgb(text):
    numbers = re.findall(r"[\d.]+", text)
    if len(numbers) < 3:
        return None
    r, g, b = (float(n) for n in numbers[:3])
    alpha = float(numbers[3]) if len(numbers) > 3 else 1.0
    return r, g, b, alpha


def reddish(text):
    value = rgb(text)
    if value is None:
        return False
    r, g, b, alpha = value
    return alpha > 0.3 and r >= 150 and r > g + 60 and r > b + 60


class Extras(WebTestCase):
    browser = True

    def button(self, selector):
        return self.driver.execute_script(BUTTON_JS, selector)

    def test_fields_and_due_shown(self):
        self.stack.add("plant tulips +garden +spring pro:home.garden pri:H due:tomorrow")
        self.stack.add("plain item")
        self.wait_until(lambda: [r["title"] for r in self.rows()], lambda t: t == ["plant tulips", "plain item"],
                        "both items")
        rows = {r["title"]: r for r in self.rows()}
        daemon = {i["title"]: i for i in self.stack.items()}
        tulips = rows["plant tulips"]
        self.assertEqual(tulips["due"], daemon["plant tulips"]["dueText"], "span.due shows todod's dueText")
        self.assertEqual(tulips["due"], "due tomorrow")
        self.assertEqual(tulips["fields"], daemon["plant tulips"]["fieldsText"], "span.fields shows fieldsText")
        for part in ("H", "home.garden", "+garden", "+spring"):
            self.assertIn(part, tulips["fields"])
        plain = rows["plain item"]
        self.assertFalse(plain["due"], "no span.due text without a due date")
        self.assertFalse(plain["fields"], "no span.fields text without fields")

    def test_overdue_row_is_red(self):
        self.stack.add("pay rent due:yesterday")
        self.stack.add("water plants due:tomorrow")
        self.wait_until(lambda: [(r["title"], r["overdue"]) for r in self.rows()],
                        lambda v: v == [("pay rent", True), ("water plants", False)], "li.overdue on the late one only")
        late, fine = self.qs(".todo-list li")
        late_colours = self.driver.execute_script(COLOURS_JS, late)
        fine_colours = self.driver.execute_script(COLOURS_JS, fine)
        self.assertTrue(any(reddish(c) for c in late_colours), f"the overdue row is drawn red: {late_colours}")
        # ... and says so in words, for those who cannot tell red (as todoctl ls does).
        rows = {r["title"]: r for r in self.rows()}
        self.assertEqual(rows["pay rent"]["due"], "due yesterday, overdue")
        self.assertEqual(rows["water plants"]["due"], "due tomorrow")
        self.assertFalse(any(reddish(c) for c in fine_colours), f"a row that is not overdue is not: {fine_colours}")
        # Done, it is no longer overdue.
        self.stack.todoctl("done", str(self.stack.items()[0]["id"]))
        self.wait_until(lambda: self.rows()[0]["overdue"], lambda o: o is False, "no li.overdue once done")

    def test_subtasks_and_dependencies_are_named_by_title(self):
        # The page shows no ids: "Subtask of: 15" would name nothing a person sees.
        self.stack.add("plan the trip")
        self.stack.add("book flights")
        self.wait_until(lambda: len(self.rows()), lambda n: n == 2, "both items")
        ids = {i["title"]: i["id"] for i in self.stack.items()}
        self.stack.add(f"renew passport parent:{ids['plan the trip']} depends:{ids['book flights']}")
        self.wait_until(lambda: {r["title"]: r["fields"] for r in self.rows()}.get("renew passport"),
                        lambda f: f == "Depends on: \u201cbook flights\u201d \u00b7 Subtask of: \u201cplan the trip\u201d",
                        "the fields name the parent and the dependency by title")
        # A renamed parent is named anew.
        self.stack.todoctl("edit", str(ids["plan the trip"]), "plan the summer trip")
        self.wait_until(lambda: {r["title"]: r["fields"] for r in self.rows()}.get("renew passport"),
                        lambda f: f is not None and "\u201cplan the summer trip\u201d" in f and not re.search(r"\d", f),
                        "the new title, and no id")

    def test_undo_says_what_and_undoes(self):
        # Nothing to undo yet: the page-sync probe left add+delete; take both back with todoctl.
        self.stack.todoctl("undo")
        self.stack.todoctl("undo")
        self.wait_until(lambda: self.button("button.undo"), lambda b: b is not None and b["disabled"] is True,
                        "button.undo disabled with nothing to undo")
        self.add_via_page("buy milk")
        props = self.stack.state()["properties"]
        self.assertEqual(props["undoText"], "Undo add “buy milk”")
        self.wait_until(lambda: self.button("button.undo"),
                        lambda b: b["disabled"] is False and b["text"] == props["undoText"] and b["shown"],
                        f"button.undo enabled, saying {props['undoText']!r}")
        self.q("button.undo").click()
        self.wait_rows([], "the add undone")
        self.assertEqual(self.stack.titles(), [])
        redo_text = self.stack.state()["properties"]["redoText"]
        self.assertTrue(redo_text)
        self.wait_until(lambda: self.button("button.redo"),
                        lambda b: b["disabled"] is False and b["text"] == redo_text,
                        f"button.redo enabled, saying {redo_text!r}")
        self.wait_until(lambda: self.button("button.undo"), lambda b: b["disabled"] is True,
                        "button.undo disabled again")
        self.q("button.redo").click()
        self.wait_rows([("buy milk", False)], "the add redone")
        self.wait_until(lambda: self.button("button.redo"), lambda b: b["disabled"] is True,
                        "button.redo disabled once nothing is left to redo")

    def test_undo_of_another_clients_change(self):
        ident = self.stack.add("from todoctl")
        self.wait_rows([("from todoctl", False)])
        self.stack.todoctl("done", str(ident))
        text = self.stack.state()["properties"]["undoText"]
        self.wait_until(lambda: self.button("button.undo"), lambda b: b["text"] == text and not b["disabled"],
                        f"button.undo follows todoctl's change: {text!r}")
        self.q("button.undo").click()
        self.wait_rows([("from todoctl", False)], "todoctl's done undone from the page")
        self.assertEqual([i["done"] for i in self.stack.items()], [False])

    def test_query_filters(self):
        for text in ("buy milk +errands", "call mum +phone", "buy stamps +errands pro:post", "read book"):
            self.stack.add(text)
        self.wait_until(lambda: len(self.rows()), lambda n: n == 4, "four rows")
        query = self.q("input.query")
        query.send_keys("+errands" + Keys.ENTER)
        self.wait_until(self.visible_titles, lambda t: t == ["buy milk", "buy stamps"], "+errands shows two rows")
        query.send_keys(Keys.CONTROL, "a")
        query.send_keys(Keys.BACKSPACE)
        query.send_keys("project:post" + Keys.ENTER)
        self.wait_until(self.visible_titles, lambda t: t == ["buy stamps"], "project:post shows one row")
        query.send_keys(Keys.CONTROL, "a")
        query.send_keys(Keys.BACKSPACE)
        query.send_keys(Keys.ENTER)
        self.wait_until(self.visible_titles, lambda t: len(t) == 4, "an empty query shows every row")
        # A query todod cannot read is an error the page shows ([role=alert], or a message the
        # query box points to with aria-describedby), not a blank list.
        query.send_keys("due.before:" + Keys.ENTER)
        self.wait_until(self.query_error, lambda text: "due.before" in text or "date" in text,
                        "a message for a query todod cannot read")
        self.assertEqual(len(self.visible_titles()), 4, "the list stays as it was")

    def query_error(self):
        texts = [e.text.strip() for e in self.qs("[role=alert]") if self.shown(e)]
        described = self.q("input.query").get_attribute("aria-describedby")
        for ident in (described or "").split():
            texts += [e.text.strip() for e in self.qs(f"#{ident}") if self.shown(e)]
        return " ".join(t for t in texts if t)

    def test_view_select_lists_named_views(self):
        self.stack.call("view.save", {"name": "errands", "query": "+errands"})
        self.stack.add("buy milk +errands")
        self.stack.add("read book")
        self.driver.refresh()   # the views there are when the page opens
        self.wait_until(lambda: len(self.rows()), lambda n: n == 2, "two rows")
        selects = [s for s in self.qs("select") if self.shown(s)]
        self.assertTrue(selects, "a view <select> is shown")
        select = Select(selects[0])
        self.wait_until(lambda: [o.text for o in select.options], lambda names: any("errands" in n for n in names),
                        "the saved view errands among the <select>'s options")
        option = next(o for o in select.options if "errands" in o.text)
        select.select_by_visible_text(option.text)
        self.wait_until(self.visible_titles, lambda t: t == ["buy milk"], "the errands view's rows")


if __name__ == "__main__":
    unittest.main()
