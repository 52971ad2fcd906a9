"""TodoMVC's application spec (tastejs/todomvc app-spec.md and its browser tests), one test each.

Each test gets a fresh todod and todod-web; the browser is shared by the class.
Every change goes through todod, so each check waits for the page to show
what todod sent back, and where it matters also asks todod (todoctl).
"""
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from webharness import WebTestCase

ONE = "buy some cheese"
TWO = "feed the cat"
THREE = "book a doctors appointment"


class TodoMVCCase(WebTestCase):
    browser = True

    def add_three(self):
        for title in (ONE, TWO, THREE):
            self.add_via_page(title)
        self.wait_rows([(ONE, False), (TWO, False), (THREE, False)])

    def toggle(self, index):
        """Clicks the row's .toggle checkbox, as a person would."""
        self.li(index).find_element("css selector", ".toggle").click()

    def click_toggle_all(self):
        """The checkbox itself is hidden under its label in TodoMVC's CSS: click the label."""
        labels = self.qs('label[for="toggle-all"]')
        self.assertTrue(labels, "no label for #toggle-all")
        labels[0].click()

    def toggle_all_checked(self):
        return self.driver.execute_script("const t = document.querySelector('.toggle-all'); return t && t.checked")

    def start_editing(self, index):
        label = self.li(index).find_element("css selector", "label")
        ActionChains(self.driver).double_click(label).perform()
        self.wait_until(lambda: self.rows()[index]["editing"], what=f"row {index} to get .editing")
        return self.li(index).find_element("css selector", ".edit")

    def replace_text(self, field, text):
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(Keys.BACKSPACE)
        field.send_keys(text)


class NoTodos(TodoMVCCase):
    def test_focuses_new_todo_on_load(self):
        self.wait_until(lambda: self.driver.execute_script(
            "return document.activeElement && document.activeElement.classList.contains('new-todo')"),
            what=".new-todo to have the focus when the page loads")

    def test_hides_main_and_footer(self):
        self.assertEqual(self.rows(), [])
        self.wait_until(lambda: (self.shown(".main"), self.shown(".footer")), lambda v: v == (False, False),
                        ".main and .footer hidden with no todos")
        # ... and they show once there is one.
        self.add_via_page(ONE)
        self.wait_until(lambda: (self.shown(".main"), self.shown(".footer")), lambda v: v == (True, True),
                        ".main and .footer shown with a todo")


class NewTodo(TodoMVCCase):
    def test_adds_on_enter(self):
        self.add_via_page(ONE)
        self.wait_rows([(ONE, False)])
        self.add_via_page(TWO)
        self.wait_rows([(ONE, False), (TWO, False)])
        self.assertEqual(self.stack.titles(), [ONE, TWO])

    def test_clears_input_when_added(self):
        self.add_via_page(ONE)
        self.wait_until(lambda: self.q(".new-todo").get_attribute("value"), lambda v: v == "",
                        ".new-todo to be empty after adding")

    def test_appends_to_bottom(self):
        self.add_three()
        self.wait_until(lambda: self.q(".todo-count").text, lambda t: "3" in t, "the counter to say 3")
        ids = [row["id"] for row in self.rows()]
        self.assertEqual(ids, [str(item["id"]) for item in self.stack.items()], "data-id follows todod's ids")

    def test_trims_input(self):
        self.add_via_page(f"    {ONE}    ", expect=ONE)
        self.wait_rows([(ONE, False)])
        self.assertEqual(self.stack.titles(), [ONE], "todod keeps the trimmed title")

    def test_blank_adds_nothing(self):
        field = self.q(".new-todo")
        field.send_keys("   " + Keys.ENTER)
        field.send_keys(Keys.ENTER)
        # A barrier: an item added after the blank ones reaches the page after anything they caused.
        self.add_via_page(ONE)
        self.wait_rows([(ONE, False)])
        self.assertEqual(self.stack.titles(), [ONE])
        adds = [m for m in self.sent() if isinstance(m, dict) and m.get("method") == "todo.add"]
        self.assertEqual(len(adds), 1, f"only the one real add is sent to todod, nothing for the blanks: {adds}")
        self.assertFalse(any(self.shown(e) and e.text.strip() for e in self.qs("[role=alert]")),
                         "a blank entry is ignored, not an error")


class MarkAllAsCompleted(TodoMVCCase):
    def setUp(self):
        super().setUp()
        self.add_three()

    def test_marks_all_complete(self):
        self.click_toggle_all()
        self.wait_rows([(ONE, True), (TWO, True), (THREE, True)])
        self.assertEqual([item["done"] for item in self.stack.items()], [True, True, True])

    def test_clears_complete_state_of_all(self):
        self.click_toggle_all()
        self.wait_rows([(ONE, True), (TWO, True), (THREE, True)])
        self.click_toggle_all()
        self.wait_rows([(ONE, False), (TWO, False), (THREE, False)])
        self.assertEqual([item["done"] for item in self.stack.items()], [False, False, False])

    def test_toggle_all_follows_items(self):
        self.assertFalse(self.toggle_all_checked())
        self.click_toggle_all()
        self.wait_until(self.toggle_all_checked, what="toggle-all checked when all are done")
        self.toggle(0)
        self.wait_rows([(ONE, False), (TWO, True), (THREE, True)])
        self.wait_until(self.toggle_all_checked, lambda c: c is False, "toggle-all unchecked once one is active")
        self.toggle(0)
        self.wait_rows([(ONE, True), (TWO, True), (THREE, True)])
        self.wait_until(self.toggle_all_checked, lambda c: c is True, "toggle-all checked again")


class Item(TodoMVCCase):
    def test_mark_complete(self):
        self.add_via_page(ONE)
        self.add_via_page(TWO)
        self.toggle(0)
        self.wait_rows([(ONE, True), (TWO, False)])
        self.toggle(1)
        self.wait_rows([(ONE, True), (TWO, True)])
        self.assertTrue(all(r["checked"] for r in self.rows()), "the .toggle boxes are checked")
        self.assertEqual([item["done"] for item in self.stack.items()], [True, True])

    def test_unmark_complete(self):
        self.add_via_page(ONE)
        self.add_via_page(TWO)
        self.toggle(0)
        self.wait_rows([(ONE, True), (TWO, False)])
        self.toggle(0)
        self.wait_rows([(ONE, False), (TWO, False)])
        self.assertEqual([item["done"] for item in self.stack.items()], [False, False])

    def test_edit_by_double_click(self):
        self.add_three()
        field = self.start_editing(1)
        self.assertEqual(field.get_attribute("value"), TWO)
        self.assertTrue(self.driver.execute_script("return document.activeElement === arguments[0]", field),
                        "the .edit field has the focus")
        self.replace_text(field, "buy some sausages" + Keys.ENTER)
        self.wait_rows([(ONE, False), ("buy some sausages", False), (THREE, False)])
        self.assertEqual(self.stack.titles(), [ONE, "buy some sausages", THREE])

    def test_destroy(self):
        self.add_three()
        li = self.li(1)
        ActionChains(self.driver).move_to_element(li).perform()
        destroy = li.find_element("css selector", ".destroy")
        self.wait_until(lambda: self.shown(destroy), what=".destroy shown on hover")
        destroy.click()
        self.wait_rows([(ONE, False), (THREE, False)])
        self.assertEqual(self.stack.titles(), [ONE, THREE])


class Editing(TodoMVCCase):
    def setUp(self):
        super().setUp()
        self.add_three()

    def test_hides_other_controls(self):
        self.start_editing(1)
        li = self.li(1)
        for selector in (".toggle", "label", ".destroy"):
            self.assertFalse(self.shown(li.find_element("css selector", selector)), f"{selector} hidden while editing")
        self.assertTrue(self.shown(li.find_element("css selector", ".edit")), ".edit shown while editing")
        other = self.li(0)
        self.assertTrue(self.shown(other.find_element("css selector", "label")), "other rows keep their label")

    def test_saves_on_enter(self):
        field = self.start_editing(1)
        self.replace_text(field, "buy some sausages" + Keys.ENTER)
        self.wait_rows([(ONE, False), ("buy some sausages", False), (THREE, False)])
        self.wait_until(lambda: self.rows()[1]["editing"], lambda e: e is False, ".editing removed after Enter")
        self.assertEqual(self.stack.titles()[1], "buy some sausages")

    def test_saves_on_blur(self):
        field = self.start_editing(1)
        self.replace_text(field, "buy some sausages")
        self.driver.execute_script("arguments[0].blur()", field)
        self.wait_rows([(ONE, False), ("buy some sausages", False), (THREE, False)])
        self.wait_until(lambda: self.rows()[1]["editing"], lambda e: e is False, ".editing removed after blur")
        self.assertEqual(self.stack.titles()[1], "buy some sausages")

    def test_trims_entered_text(self):
        field = self.start_editing(1)
        self.replace_text(field, "    buy some sausages    " + Keys.ENTER)
        self.wait_rows([(ONE, False), ("buy some sausages", False), (THREE, False)])
        self.assertEqual(self.stack.titles()[1], "buy some sausages")

    def test_empty_removes_item(self):
        field = self.start_editing(1)
        self.replace_text(field, Keys.ENTER)
        self.wait_rows([(ONE, False), (THREE, False)])
        self.assertEqual(self.stack.titles(), [ONE, THREE])

    def test_escape_cancels(self):
        field = self.start_editing(1)
        self.replace_text(field, "foo")
        field.send_keys(Keys.ESCAPE)
        self.wait_until(lambda: self.rows()[1]["editing"], lambda e: e is False, ".editing removed after Escape")
        # A barrier: anything Escape sent (a save on blur, say) reaches todod before this add.
        self.add_via_page("after escape")
        self.wait_rows([(ONE, False), (TWO, False), (THREE, False), ("after escape", False)])
        self.assertEqual(self.stack.titles(), [ONE, TWO, THREE, "after escape"])


class Counter(TodoMVCCase):
    def count(self):
        return self.q(".todo-count").text.strip(), self.q(".todo-count strong").text.strip()

    def test_counts_items_left(self):
        self.add_via_page(ONE)
        self.wait_until(self.count, lambda c: c == ("1 item left", "1"), '"1 item left" with 1 in <strong>')
        self.add_via_page(TWO)
        self.wait_until(self.count, lambda c: c == ("2 items left", "2"), '"2 items left" with 2 in <strong>')
        self.toggle_first()
        self.wait_until(self.count, lambda c: c == ("1 item left", "1"), "1 item left once one is done")

    def toggle_first(self):
        self.li(0).find_element("css selector", ".toggle").click()


class ClearCompleted(TodoMVCCase):
    def setUp(self):
        super().setUp()
        self.add_three()

    def test_shows_correct_text(self):
        self.toggle(0)
        self.wait_until(lambda: self.shown(".clear-completed"), what=".clear-completed shown")
        self.assertEqual(self.q(".clear-completed").text.strip(), "Clear completed")

    def test_removes_completed(self):
        self.toggle(1)
        self.wait_rows([(ONE, False), (TWO, True), (THREE, False)])
        self.q(".clear-completed").click()
        self.wait_rows([(ONE, False), (THREE, False)])
        self.assertEqual(self.stack.titles(), [ONE, THREE])

    def test_hidden_when_none_completed(self):
        self.assertFalse(self.shown(".clear-completed"), "hidden before anything is done")
        self.toggle(1)
        self.wait_until(lambda: self.shown(".clear-completed"), what=".clear-completed shown")
        self.q(".clear-completed").click()
        self.wait_rows([(ONE, False), (THREE, False)])
        self.wait_until(lambda: self.shown(".clear-completed"), lambda s: s is False,
                        ".clear-completed hidden when none are done")


class Persistence(TodoMVCCase):
    def test_persists(self):
        self.add_via_page(ONE)
        self.add_via_page(TWO)
        self.toggle(0)
        self.wait_rows([(ONE, True), (TWO, False)])
        self.driver.refresh()
        self.wait_rows([(ONE, True), (TWO, False)], "the same list after a reload")
        self.assertTrue(self.rows()[0]["checked"], "the done item's box is checked after a reload")
        self.assertEqual([(i["title"], i["done"]) for i in self.stack.items()], [(ONE, True), (TWO, False)],
                         "todoctl sees the list the page made")
        listing = self.stack.todoctl("ls").stdout
        self.assertIn(ONE, listing)
        self.assertIn(TWO, listing)

    def test_survives_todod_restart(self):
        self.add_via_page(ONE)
        self.stack.stop_todod()
        self.stack.start_todod()
        self.driver.refresh()
        self.wait_rows([(ONE, False)], "the list after todod restarted and the page reloaded")


class Routing(TodoMVCCase):
    def setUp(self):
        super().setUp()
        self.add_three()
        self.toggle(1)
        self.wait_rows([(ONE, False), (TWO, True), (THREE, False)])

    def filter_link(self, href):
        return self.q(f'.filters a[href="{href}"]')

    def selected(self):
        return [a.get_attribute("href").split("#", 1)[-1] for a in self.qs(".filters a.selected")]

    def test_active(self):
        self.filter_link("#/active").click()
        self.wait_rows([(ONE, False), (THREE, False)], "only the active items under #/active")
        self.wait_until(self.selected, lambda s: s == ["/active"], "the Active link .selected")

    def test_completed(self):
        self.filter_link("#/completed").click()
        self.wait_rows([(TWO, True)], "only the completed item under #/completed")
        self.wait_until(self.selected, lambda s: s == ["/completed"], "the Completed link .selected")

    def test_all(self):
        self.filter_link("#/active").click()
        self.wait_rows([(ONE, False), (THREE, False)])
        self.filter_link("#/completed").click()
        self.wait_rows([(TWO, True)])
        self.filter_link("#/").click()
        self.wait_rows([(ONE, False), (TWO, True), (THREE, False)], "every item under #/")
        self.wait_until(self.selected, lambda s: s == ["/"], "the All link .selected")

    def test_highlights_current_filter(self):
        self.wait_until(self.selected, lambda s: s == ["/"], "All .selected at first")
        self.filter_link("#/active").click()
        self.wait_until(self.selected, lambda s: s == ["/active"], "Active .selected")
        self.filter_link("#/completed").click()
        self.wait_until(self.selected, lambda s: s == ["/completed"], "Completed .selected")

    def test_back_button(self):
        self.filter_link("#/").click()
        self.wait_rows([(ONE, False), (TWO, True), (THREE, False)])
        self.filter_link("#/active").click()
        self.wait_rows([(ONE, False), (THREE, False)])
        self.filter_link("#/completed").click()
        self.wait_rows([(TWO, True)])
        self.driver.back()
        self.wait_rows([(ONE, False), (THREE, False)], "back to #/active")
        self.wait_until(self.selected, lambda s: s == ["/active"], "Active .selected after back")
        self.driver.back()
        self.wait_rows([(ONE, False), (TWO, True), (THREE, False)], "back to #/")
        self.wait_until(self.selected, lambda s: s == ["/"], "All .selected after back")

    def test_route_on_load(self):
        self.driver.get(self.stack.base() + "#/completed")
        self.wait_rows([(TWO, True)], "#/completed opened directly")
        self.wait_until(self.selected, lambda s: s == ["/completed"], "Completed .selected on load")

    def test_toggle_under_active_route(self):
        # An item done under #/active leaves the shown rows.
        self.filter_link("#/active").click()
        self.wait_rows([(ONE, False), (THREE, False)])
        self.visible_li(0).find_element("css selector", ".toggle").click()
        self.wait_rows([(THREE, False)], "the item done leaves #/active")


if __name__ == "__main__":
    unittest.main()
