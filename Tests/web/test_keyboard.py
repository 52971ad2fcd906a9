"""The page with the keyboard only: Tab, Shift+Tab, Space, Enter, Escape; never a click.

Keys go to whatever has the focus (ActionChains.send_keys), as a person's would,
and every element that takes the focus on the way must show it (a computed
outline that is not `none`).
"""
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from webharness import WebTestCase

FOCUS_JS = r"""
const el = document.activeElement;
if (!el || el === document.body) return null;
const li = el.closest('.todo-list li');
const rows = Array.from(document.querySelectorAll('.todo-list li'));
const style = getComputedStyle(el);
return {
  tag: el.tagName.toLowerCase(),
  classes: el.className && el.className.baseVal === undefined ? el.className : '',
  row: li ? rows.indexOf(li) : -1,
  outlineStyle: style.outlineStyle,
  outlineWidth: style.outlineWidth,
  boxShadow: style.boxShadow,
  focusVisible: el.matches(':focus-visible'),
  text: (el.textContent || el.value || '').trim().slice(0, 40),
};
"""


class KeyboardOnly(WebTestCase):
    browser = True

    def keys(self, *keys):
        ActionChains(self.driver).send_keys(*keys).perform()

    def with_key(self, modifier, *keys):
        ActionChains(self.driver).key_down(modifier).send_keys(*keys).key_up(modifier).perform()

    def focus(self):
        return self.driver.execute_script(FOCUS_JS)

    def assert_focus_visible(self, focus):
        self.assertIsNotNone(focus, "something has the focus")
        self.assertNotEqual(focus["outlineStyle"], "none",
                            f"the focused element shows it (outline), but its outline is none: {focus}")
        self.assertNotEqual(focus["outlineWidth"], "0px", f"the focus outline has no width: {focus}")

    def tab_to(self, predicate, what, limit=40, backwards=False):
        """Presses Tab until predicate(focus); checks each stop shows its focus."""
        stops = []
        for _ in range(limit):
            self.with_key(Keys.SHIFT, Keys.TAB) if backwards else self.keys(Keys.TAB)
            focus = self.focus()
            stops.append(focus)
            if focus is not None:
                self.assert_focus_visible(focus)
                if predicate(focus):
                    return focus
        self.fail(f"Tab never reached {what}; stops: {stops}")

    def is_new_todo(self, focus):
        return focus is not None and "new-todo" in focus["classes"].split()

    def test_add_toggle_edit_delete(self):
        # Add: the entry field has the focus on load (or is the first Tab stop away).
        if not self.is_new_todo(self.focus()):
            self.tab_to(self.is_new_todo, ".new-todo")
        self.keys("first by keyboard", Keys.ENTER)
        self.wait_rows([("first by keyboard", False)])
        self.keys("second by keyboard", Keys.ENTER)
        self.wait_rows([("first by keyboard", False), ("second by keyboard", False)])
        self.assertTrue(self.is_new_todo(self.focus()), "the focus stays in .new-todo after adding")

        # Toggle: Tab to the first row's checkbox, Space.
        self.tab_to(lambda f: f["row"] == 0 and "toggle" in f["classes"].split(), "row 0's .toggle")
        self.keys(Keys.SPACE)
        self.wait_rows([("first by keyboard", True), ("second by keyboard", False)], "Space toggles the row")
        self.assertEqual([i["done"] for i in self.stack.items()], [True, False])
        self.keys(Keys.SPACE)
        self.wait_rows([("first by keyboard", False), ("second by keyboard", False)], "Space toggles it back")

        # Edit: from a stop in the row, Enter (or F2) opens the editor, with the focus in .edit.
        self.start_editing_by_keyboard(0)
        self.with_key(Keys.CONTROL, "a")
        self.keys("edited by keyboard", Keys.ENTER)
        self.wait_rows([("edited by keyboard", False), ("second by keyboard", False)], "Enter saves the edit")
        self.assertEqual(self.stack.titles(), ["edited by keyboard", "second by keyboard"])
        after = self.focus()
        self.assertIsNotNone(after, "the focus is not lost (left on <body>) after saving an edit")
        self.assertNotEqual(after["tag"], "body")

        # Escape in the editor leaves it unchanged.
        self.start_editing_by_keyboard(0)
        self.with_key(Keys.CONTROL, "a")
        self.keys("not kept", Keys.ESCAPE)
        self.wait_until(lambda: self.rows()[0]["editing"], lambda e: e is False, "Escape closes the editor")
        self.assertIsNotNone(self.focus(), "the focus is not lost after Escape")

        # Delete: Tab to the row's .destroy, Enter.
        if self.focus() is None or self.focus()["row"] != 1:
            self.tab_to(lambda f: f["row"] == 1 and "toggle" in f["classes"].split(), "row 1's .toggle")
        self.tab_to(lambda f: f["row"] == 1 and "destroy" in f["classes"].split(), "row 1's .destroy", limit=5)
        self.keys(Keys.ENTER)
        self.wait_rows([("edited by keyboard", False)], "Enter on .destroy deletes the row")
        self.assertEqual(self.stack.titles(), ["edited by keyboard"])
        self.assertIsNotNone(self.focus(), "the focus is not lost after a delete")

    def start_editing_by_keyboard(self, row):
        """Tabs to a stop in the row other than .toggle/.destroy (or the toggle), then Enter, then F2."""
        focus = self.focus()
        if focus is None or focus["row"] != row:
            focus = self.tab_to(lambda f: f["row"] == row, f"row {row}")
        tried = []
        for _ in range(4):
            classes = focus["classes"].split() if focus else []
            for key in ((Keys.ENTER, Keys.F2) if "toggle" not in classes and "destroy" not in classes else (Keys.F2,)):
                self.keys(key)
                tried.append((focus and focus["tag"], classes, key == Keys.ENTER and "Enter" or "F2"))
                try:
                    self.wait_until(lambda: self.rows()[row]["editing"], what="editing", timeout=1)
                except AssertionError:
                    continue
                focused = self.focus()
                self.assertTrue(focused and "edit" in focused["classes"].split(), f".edit has the focus: {focused}")
                self.assert_focus_visible(focused)
                return
            self.keys(Keys.TAB)
            focus = self.focus()
            if focus is None or focus["row"] != row:
                break
        self.fail(f"no key opened row {row}'s editor; tried {tried}")


if __name__ == "__main__":
    unittest.main()
