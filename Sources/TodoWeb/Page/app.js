// todod's page: a thin view of the daemon's view model, in TodoMVC's markup.
//
// todod-web relays the WebSocket at ./rpc line for line to todod's socket:
// every message sent is one JSON-RPC request line, every message received is
// one line todod wrote. The page keeps no list of its own: it subscribes to a
// view and applies the daemon's row edits to the DOM, one row per edit, so
// what it shows is always what todod says the view is.
"use strict";

(function () {
	// ---------------------------------------------------------------------
	// Elements
	// ---------------------------------------------------------------------

	const $ = (selector) => document.querySelector(selector);

	const ui = {
		connectionState: $(".connection-state"),
		viewSelect: $(".view-select"),
		query: $(".query"),
		queryError: $(".query-error"),
		undo: $(".undo"),
		redo: $(".redo"),
		alertBox: $(".alert-box"),
		alert: $(".alert"),
		alertDismiss: $(".alert-dismiss"),
		newTodo: $(".new-todo"),
		main: $(".main"),
		toggleAll: $(".toggle-all"),
		list: $(".todo-list"),
		emptyText: $(".empty-text"),
		footer: $(".footer"),
		count: $(".todo-count"),
		filterLinks: Array.from(document.querySelectorAll(".filters a")),
		clearCompleted: $(".clear-completed"),
		overdueText: $(".overdue-text"),
		dueTodayText: $(".due-today-text"),
	};

	// ---------------------------------------------------------------------
	// State
	// ---------------------------------------------------------------------

	const VIEW_KEY = "todod.view";

	const state = {
		props: {}, // the subscribed view's properties, merged event by event
		rows: [], // its rows, in order
		rowEls: [], // the li of each row, same order as rows
		sub: null, // {id, key, named, epoch, revision, connection}
		namedViews: new Map(), // name -> NamedView from view.list
		viewName: "main",
		customQuery: null, // a query typed in the query box, or null for the named view's
		editing: null, // {id, li, input} while a row is being edited
		pendingAdd: null, // a title Enter was pressed on and todod has not acknowledged
		pendingAddNotice: null, // the alert saying it will be added later
		addInFlight: false,
		subscribeSeq: 0, // which view.subscribe is the latest one asked for
		rendered: {}, // what renderProperties last wrote, to touch only what changed
	};

	const conn = {
		ws: null,
		serial: 0, // counts connections, so late replies of an old one are told apart
		nextId: 1, // request ids only grow, across connections too
		pending: new Map(), // id -> {resolve, reject}
		backoff: 100,
		retryTimer: null,
		stopped: false, // true once the page knows it cannot get in (no key)
		maxLineBytes: 1048576, // todod's line limit, from server.hello's limits
	};

	// ---------------------------------------------------------------------
	// Small DOM helpers: they write only when the value differs, so that an
	// event touching one row mutates about one row (and nothing else).
	// ---------------------------------------------------------------------

	function setText(element, text) {
		if (element.textContent !== text) element.textContent = text;
	}

	function setHidden(element, hidden) {
		if (element.hidden !== hidden) element.hidden = hidden;
	}

	function setAttr(element, name, value) {
		if (value === null || value === undefined) {
			if (element.hasAttribute(name)) element.removeAttribute(name);
		} else if (element.getAttribute(name) !== String(value)) {
			element.setAttribute(name, String(value));
		}
	}

	function setClass(element, name, on) {
		// classList.toggle with force changes nothing when already so
		element.classList.toggle(name, Boolean(on));
	}

	// ---------------------------------------------------------------------
	// Messages for people
	// ---------------------------------------------------------------------

	function showAlert(message) {
		setText(ui.alert, message);
		setHidden(ui.alertBox, false);
	}

	function clearAlert() {
		setText(ui.alert, "");
		setHidden(ui.alertBox, true);
	}

	// kind is a word CSS can style (data-state); parts are strings or nodes
	function setConnectionState(kind, ...parts) {
		ui.connectionState.dataset.state = kind;
		document.body.dataset.connection = kind;
		const text = parts.map((part) => (typeof part === "string" ? part : part.textContent)).join("");
		if (ui.connectionState.textContent !== text) ui.connectionState.replaceChildren(...parts);
	}

	function code(text) {
		const element = document.createElement("code");
		element.textContent = text;
		return element;
	}

	// ---------------------------------------------------------------------
	// JSON-RPC over the WebSocket
	// ---------------------------------------------------------------------

	function rpcError(error) {
		const err = new Error(error && error.message ? error.message : "todod refused the request.");
		err.code = error && error.code;
		err.name = (error && error.data && error.data.name) || "error";
		err.data = error && error.data;
		return err;
	}

	function connectionError(message) {
		const err = new Error(message);
		err.name = "connectionLost";
		err.connectionLost = true;
		return err;
	}

	function isOpen() {
		return conn.ws !== null && conn.ws.readyState === WebSocket.OPEN;
	}

	// Sends one request and resolves with its result (or rejects with its error).
	function request(method, params) {
		if (!isOpen()) {
			return Promise.reject(connectionError("todod is not connected: try again once it is back."));
		}
		const id = conn.nextId++;
		const message = { jsonrpc: "2.0", id: id, method: method };
		if (params !== undefined) message.params = params;
		// JSON.stringify escapes line breaks inside strings, so this is one line
		const line = JSON.stringify(message);
		if (line.length * 3 > conn.maxLineBytes && new TextEncoder().encode(line).length > conn.maxLineBytes) {
			// sent, it would only close the connection (and be sent again after it)
			return Promise.reject(rpcError({ message: "That is too long to send to todod." }));
		}
		return new Promise((resolve, reject) => {
			conn.pending.set(id, { resolve: resolve, reject: reject });
			conn.ws.send(line);
		});
	}

	// A request the person asked for: its error goes to the alert.
	function userRequest(method, params) {
		clearAlert();
		return request(method, params).catch((err) => {
			showAlert(err.message);
			throw err;
		});
	}

	function ignore() {}

	function handleLine(text) {
		let message;
		try {
			message = JSON.parse(text);
		} catch (err) {
			console.warn("todod sent a line that is not JSON", err);
			return;
		}
		// todod answers a batch with an array; the page never sends one, but read it anyway
		for (const item of Array.isArray(message) ? message : [message]) handleMessage(item);
	}

	function handleMessage(message) {
		if (!message || typeof message !== "object") return;
		if (typeof message.method === "string" && !("id" in message)) {
			handleNotification(message.method, message.params || {});
			return;
		}
		const waiter = conn.pending.get(message.id);
		if (waiter) {
			conn.pending.delete(message.id);
			if (message.error) waiter.reject(rpcError(message.error));
			else waiter.resolve(message.result);
		} else if (message.error) {
			// an error nobody waits for: sent instead of the greeting
			// (server.tooManyConnections, server.badConfiguration) or a line todod could not read
			showAlert(message.error.message || "todod reported an error.");
		}
	}

	function handleNotification(method, params) {
		switch (method) {
			case "server.hello": return onHello(params);
			case "view.changed": return onViewChanged(params);
			case "view.removed": return onViewRemoved(params);
			case "connection.lagging": return onLagging(params);
			case "connection.goodbye": return onGoodbye(params);
			case "server.shutdown": return onShutdown(params);
			default: return undefined; // notifications added later are not ours to read
		}
	}

	// ---------------------------------------------------------------------
	// Connecting, and the relay's close codes
	// ---------------------------------------------------------------------

	function rpcURL() {
		const url = new URL("rpc", location.href);
		url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
		return url.href;
	}

	function connect() {
		clearTimeout(conn.retryTimer);
		if (conn.stopped) return;
		const serial = ++conn.serial;
		let opened = false;
		let ws;
		try {
			ws = new WebSocket(rpcURL());
		} catch (err) {
			scheduleReconnect(nextBackoff());
			return;
		}
		conn.ws = ws;
		ws.onopen = () => {
			opened = true;
			startSession(serial);
		};
		ws.onmessage = (event) => {
			if (conn.serial === serial) handleLine(event.data);
		};
		ws.onclose = (event) => {
			if (conn.serial === serial) onClose(event, opened);
		};
	}

	function nextBackoff() {
		const delay = conn.backoff;
		conn.backoff = Math.min(conn.backoff * 2, 2000);
		return delay;
	}

	function scheduleReconnect(delay) {
		clearTimeout(conn.retryTimer);
		conn.retryTimer = setTimeout(connect, delay);
	}

	function failPendingRequests() {
		const lost = conn.pending;
		conn.pending = new Map();
		for (const waiter of lost.values()) {
			waiter.reject(connectionError("The connection to todod was lost before it answered: try again."));
		}
	}

	function onClose(event, opened) {
		conn.ws = null;
		failPendingRequests();
		if (event.code === 4401) {
			// todod-web refused the key (it opens a refused WebSocket only to say so)
			needsKey();
			return;
		}
		if (event.code >= 4400 && event.code <= 4499) {
			// refused for another reason (a foreign Host or Origin): retrying cannot help
			conn.stopped = true;
			setConnectionState("refused", "todod-web refused this page: " + (event.reason || "close code " + event.code) + ".");
			return;
		}
		if (!opened) {
			// The socket never opened: the key may be missing or stale
			checkSession(event);
			return;
		}
		reactToClose(event.code);
	}

	function reactToClose(code) {
		switch (code) {
			case 4001: // the relay could not reach todod's socket
				setConnectionState("not-running", "todod is not running. Trying again every 2 seconds…");
				scheduleReconnect(2000);
				break;
			case 1009:
				showAlert("A message was too big for the connection to todod, which was closed.");
				setConnectionState("reconnecting", "Reconnecting to todod…");
				scheduleReconnect(nextBackoff());
				break;
			case 1013:
				setConnectionState("too-many-tabs", "Too many tabs are open on todod-web: close one. Trying again…");
				scheduleReconnect(2000);
				break;
			default: // 1012, todod closed the connection (restarting), and anything else
				setConnectionState("reconnecting", "Reconnecting to todod…");
				scheduleReconnect(nextBackoff());
		}
	}

	function needsKey() {
		conn.stopped = true;
		clearTimeout(conn.retryTimer);
		setConnectionState("needs-key", "This page needs its key: open it with ", code("todoctl web"));
	}

	function checkSession(event) {
		fetch(new URL("session", location.href), { cache: "no-store", credentials: "same-origin" }).then(
			(response) => {
				if (response.status === 401) {
					needsKey();
					return;
				}
				reactToClose(event.code);
			},
			() => {
				setConnectionState("unreachable", "The page's server (todod-web) cannot be reached. Trying again…");
				scheduleReconnect(nextBackoff());
			});
	}

	// Runs as soon as the socket opens: requests may go before the greeting.
	async function startSession(serial) {
		try {
			await loadViewList();
			if (conn.serial !== serial) return;
			await subscribe({ resume: true });
			if (conn.serial !== serial) return;
			setConnectionState("connected", "Connected to todod");
			sendPendingAdd();
		} catch (err) {
			if (!err.connectionLost) showAlert(err.message);
		}
	}

	function onHello(params) {
		conn.backoff = 100; // todod is up: the next trouble starts the backoff anew
		if (params.limits && params.limits.maxLineBytes > 0) conn.maxLineBytes = params.limits.maxLineBytes;
	}

	function onLagging(params) {
		// todod dropped our queued events; a reset event follows once we have read the rest
		setConnectionState("lagging", params.message || "Catching up with todod…");
	}

	function onGoodbye(params) {
		showAlert(params.message || "todod closed the connection.");
		setConnectionState("reconnecting", "Reconnecting to todod…");
	}

	function onShutdown() {
		// Requests with no reply yet were not carried out: a pending add is sent
		// again once reconnected (its text is still in the input)
		setConnectionState("reconnecting", "todod is stopping. Reconnecting to todod…");
	}

	// ---------------------------------------------------------------------
	// Views: which one to watch, and how
	// ---------------------------------------------------------------------

	const FILTER_ROUTES = { all: "#/", active: "#/active", completed: "#/completed" };

	// The hash: #/active?view=work. No path means the named view's own filter.
	function readRoute() {
		const hash = location.hash.replace(/^#/, "");
		const question = hash.indexOf("?");
		const path = question < 0 ? hash : hash.slice(0, question);
		const search = new URLSearchParams(question < 0 ? "" : hash.slice(question + 1));
		let filter = null;
		if (path === "/active") filter = "active";
		else if (path === "/completed") filter = "completed";
		else if (path !== "") filter = "all";
		return { filter: filter, view: search.get("view") };
	}

	function routeFor(filter, viewName) {
		const base = FILTER_ROUTES[filter] || "#/";
		return viewName && viewName !== "main" ? base + "?view=" + encodeURIComponent(viewName) : base;
	}

	function rememberView(name) {
		state.viewName = name;
		try {
			localStorage.setItem(VIEW_KEY, name);
		} catch (err) {
			// storage may be off; the hash still says which view
		}
	}

	function storedView() {
		try {
			return localStorage.getItem(VIEW_KEY);
		} catch (err) {
			return null;
		}
	}

	// What to subscribe to: the named view itself when the route's filter is
	// its own (so a restart resumes by replay), else an own view with the
	// named view's query, sort and grouping and the route's filter.
	function desiredSelection() {
		const route = readRoute();
		const named = state.namedViews.get(state.viewName);
		const wantsOwnFilter = route.filter !== null && named && route.filter !== named.filter;
		if (state.customQuery === null && !wantsOwnFilter) {
			return { named: true, key: "view:" + state.viewName, params: { view: state.viewName } };
		}
		const params = {
			own: true,
			filter: route.filter || (named ? named.filter : "all"),
			query: state.customQuery !== null ? state.customQuery : (named ? named.query : ""),
			sort: named ? named.sort : "created",
			grouping: named && named.grouping ? named.grouping : "none",
		};
		return { named: false, key: "own:" + JSON.stringify(params), params: params };
	}

	async function loadViewList() {
		const result = await request("view.list");
		state.namedViews = new Map(result.views.map((view) => [view.name, view]));
		if (!state.namedViews.has(state.viewName)) rememberView("main");
		renderViewOptions();
	}

	function renderViewOptions() {
		const names = Array.from(state.namedViews.keys());
		if (!names.includes(state.viewName)) names.push(state.viewName);
		const current = Array.from(ui.viewSelect.options).map((option) => option.value);
		if (current.join("\n") !== names.join("\n")) {
			ui.viewSelect.replaceChildren(...names.map((name) => {
				const option = document.createElement("option");
				option.value = name;
				option.textContent = name;
				return option;
			}));
		}
		if (ui.viewSelect.value !== state.viewName) ui.viewSelect.value = state.viewName;
	}

	// Subscribes to what desiredSelection says; with resume, from where the
	// held state is (replay for a named view, a reset for an own one).
	async function subscribe({ resume }) {
		const seq = ++state.subscribeSeq;
		const serial = conn.serial;
		const selection = desiredSelection();
		const params = Object.assign({}, selection.params);
		const held = state.sub;
		if (resume && held && held.key === selection.key && held.epoch) {
			params.since = { epoch: held.epoch, revision: held.revision };
		}
		let result;
		try {
			result = await request("view.subscribe", params);
		} catch (err) {
			// a view removed meanwhile, or a name in the address that is none
			if ((err.name === "view.notFound" || err.name === "view.invalidName") && state.viewName !== "main") {
				rememberView("main");
				return subscribe({ resume: false });
			}
			throw err;
		}
		if (conn.serial !== serial) return; // that connection is gone; the next one subscribes anew
		if (seq !== state.subscribeSeq) {
			// a newer choice was made meanwhile: this one is not wanted
			request("view.unsubscribe", { subscription: result.subscription }).catch(ignore);
			return;
		}
		if (held && held.connection === serial && held.id !== result.subscription) {
			request("view.unsubscribe", { subscription: held.id }).catch(ignore);
		}
		state.sub = {
			id: result.subscription,
			key: selection.key,
			named: selection.named,
			epoch: result.epoch,
			revision: result.revision,
			connection: serial,
		};
		applySubscribeResult(result);
	}

	function applySubscribeResult(result) {
		if (result.mode === "replay") {
			// the missed events, oldest first, on top of the state held at since
			for (const body of result.replay) applyChangeBody(body);
		} else {
			// snapshot, or reset (result.reason says why: epochChanged, ownView…)
			const snapshot = result.state || { properties: {}, rows: [] };
			state.props = Object.assign({}, snapshot.properties);
			resetRows(snapshot.rows || []);
		}
		state.sub.revision = result.revision;
		afterChange();
	}

	// Resubscribes after the person chose another route, view or query.
	function resubscribe() {
		if (!isOpen()) return Promise.resolve(); // the next connection subscribes to it
		return subscribe({ resume: false });
	}

	function onViewChanged(params) {
		const sub = state.sub;
		if (!sub || sub.id !== params.subscription || sub.connection !== conn.serial) return;
		if (!params.reset && params.revision !== sub.revision + 1) {
			if (params.revision <= sub.revision) return; // already applied
			// A gap never happens on a healthy connection: catch up by replay
			console.warn("todod skipped revisions", sub.revision, params.revision);
			subscribe({ resume: true }).catch((err) => showAlert(err.message));
			return;
		}
		applyChangeBody(params);
		sub.revision = params.revision;
		if (params.reset && ui.connectionState.dataset.state === "lagging") {
			setConnectionState("connected", "Connected to todod");
		}
		afterChange();
	}

	function onViewRemoved(params) {
		const sub = state.sub;
		if (!sub || sub.id !== params.subscription) return;
		showAlert(params.message || "The view " + params.view + " was removed.");
		state.namedViews.delete(params.view);
		state.sub = null;
		rememberView("main");
		state.customQuery = null;
		renderViewOptions();
		resubscribe().catch((err) => showAlert(err.message));
	}

	// Applies one ChangeBody: properties merge, row edits in order.
	function applyChangeBody(body) {
		titles = null;
		Object.assign(state.props, body.properties || {});
		for (const edit of body.rows || []) applyRowEdit(edit);
	}

	// After any change: the page's chrome, and a named view's new options.
	function afterChange() {
		refreshItemReferences();
		markGroupStarts();
		renderProperties();
		const sub = state.sub;
		if (sub && sub.named) noteNamedViewOptions();
	}

	// A named view we watch may be changed by anyone (view.save, view.setOptions):
	// keep its definition, and leave it for an own view if the route now differs.
	function noteNamedViewOptions() {
		const props = state.props;
		let known = state.namedViews.get(state.viewName);
		if (!known) {
			// a view saved since view.list was read
			known = { name: state.viewName };
			state.namedViews.set(state.viewName, known);
		}
		for (const key of ["filter", "query", "sort", "grouping"]) {
			if (key in props) known[key] = props[key];
		}
		if (!desiredSelection().named) resubscribe().catch((err) => showAlert(err.message));
	}

	// ---------------------------------------------------------------------
	// Rows: one li per row, edited one at a time
	// ---------------------------------------------------------------------

	const parts = new WeakMap(); // li -> its parts and the row it shows

	function applyRowEdit(edit) {
		switch (edit.op) {
			case "insert": return insertRow(edit.index, edit.row);
			case "remove": return removeRow(edit.index);
			case "update": return updateRow(edit.index, edit.row);
			case "move": return moveRow(edit.from, edit.index, edit.row);
			case "reset": return resetRows(edit.rows);
			default:
				// an edit this page cannot apply: start again from a snapshot
				console.warn("unknown row edit", edit);
				state.sub = null;
				resubscribe().catch((err) => showAlert(err.message));
				return undefined;
		}
	}

	function createRowElement(row) {
		const li = document.createElement("li");
		const view = document.createElement("div");
		view.className = "view";

		const toggle = document.createElement("input");
		toggle.className = "toggle";
		toggle.type = "checkbox";

		const label = document.createElement("label");
		label.tabIndex = 0; // Enter or F2 on it edits, Delete removes

		const fields = span("fields");
		const due = span("due");
		const wait = span("wait");
		const blocked = span("blocked-marker");
		blocked.textContent = "blocked";

		const notesButton = document.createElement("button");
		notesButton.type = "button";
		notesButton.className = "notes-toggle";
		notesButton.textContent = "notes";
		notesButton.setAttribute("aria-expanded", "false");

		const destroy = document.createElement("button");
		destroy.type = "button";
		destroy.className = "destroy";

		const notes = document.createElement("div");
		notes.className = "notes";
		notes.hidden = true;

		view.append(toggle, label, fields, due, wait, blocked, notesButton, destroy);
		li.append(view, notes);
		parts.set(li, { view, toggle, label, fields, due, wait, blocked, notesButton, destroy, notes, row: null });
		fillRow(li, row);
		return li;
	}

	function span(className) {
		const element = document.createElement("span");
		element.className = className;
		return element;
	}

	// Writes a row's data into its li, touching only what differs.
	function fillRow(li, row) {
		const p = parts.get(li);
		const previous = p.row;
		p.row = row;
		setAttr(li, "data-id", row.id);
		setClass(li, "completed", row.done);
		setClass(li, "overdue", row.overdue);
		setClass(li, "blocked", row.blocked === true);
		setClass(li, "blocking", row.blocking === true);
		setClass(li, "context", row.context === true);
		setAttr(li, "data-depth", row.depth ? row.depth : null);
		setAttr(li, "data-group", row.group);

		// a property, not the attribute: no DOM mutation, and always the model's
		p.toggle.checked = row.done;
		setAttr(p.toggle, "aria-label", row.title);
		setText(p.label, row.title);
		setAttr(p.label, "title", row.title);

		const fieldsText = fieldsTextOf(row);
		setText(p.fields, fieldsText);
		setHidden(p.fields, !fieldsText);
		// Said in words as todoctl ls says it, not by the colour alone.
		setText(p.due, row.dueText ? row.dueText + (row.overdue ? ", overdue" : "") : "");
		setHidden(p.due, !row.dueText);
		setText(p.wait, row.waitText || "");
		setHidden(p.wait, !row.waitText);
		setHidden(p.blocked, row.blocked !== true);

		setHidden(p.notesButton, !(row.noteCount > 0));
		setAttr(p.notesButton, "aria-label", "Notes of " + row.title);
		setAttr(p.destroy, "aria-label", "Delete " + row.title);

		// open notes follow the item: fetched again when its notes change
		const notesOpen = p.notesButton.getAttribute("aria-expanded") === "true";
		if (notesOpen && row.noteCount === 0) closeNotes(li);
		else if (notesOpen && previous && previous.noteCount !== row.noteCount) loadNotes(li);
	}

	// The fields as todod words them, but an item named by its title rather
	// than its id ("Subtask of: “plan the trip”"): the page shows no ids.
	// The text todod gives for such a field is its label and the ids.
	const itemFields = ["parent", "depends"];

	function fieldsTextOf(row) {
		const worded = row.valueTexts || {};
		if (!itemFields.some((name) => worded[name])) return row.fieldsText || "";
		const replaced = new Map();
		for (const name of itemFields) {
			const text = worded[name];
			if (!text) continue;
			const label = text.slice(0, text.indexOf(": "));
			const ids = [].concat((row.values || {})[name] ?? []);
			const titles = ids.map((id) => {
				const title = titleOf(id);
				return title === null ? "an item not in this view" : "\u201C" + title + "\u201D";
			});
			replaced.set(text, label + ": " + titles.join(", "));
		}
		return (row.fieldsText || "").split(" \u00B7 ").map((part) => replaced.get(part) ?? part).join(" \u00B7 ");
	}

	// Titles by id, made when first asked after a change (not per row).
	let titles = null;

	function titleOf(id) {
		if (titles === null) titles = new Map(state.rows.map((row) => [row.id, row.title]));
		return titles.has(id) ? titles.get(id) : null;
	}

	// A title changed, or an item came or went: the rows that name items
	// by title say the new ones.
	function refreshItemReferences() {
		titles = null;
		for (const li of state.rowEls) {
			const p = parts.get(li);
			if (!p.row || !itemFields.some((name) => (p.row.valueTexts || {})[name])) continue;
			const fieldsText = fieldsTextOf(p.row);
			setText(p.fields, fieldsText);
			setHidden(p.fields, !fieldsText);
		}
	}

	function insertRow(index, row) {
		const li = createRowElement(row);
		ui.list.insertBefore(li, state.rowEls[index] || null);
		state.rows.splice(index, 0, row);
		state.rowEls.splice(index, 0, li);
	}

	function removeRow(index) {
		const li = state.rowEls[index];
		if (!li) return;
		const hadFocus = li.contains(document.activeElement);
		if (state.editing && state.editing.li === li) state.editing = null;
		li.remove();
		state.rows.splice(index, 1);
		state.rowEls.splice(index, 1);
		if (hadFocus) focusRowNear(index);
	}

	function updateRow(index, row) {
		const li = state.rowEls[index];
		if (!li) return;
		state.rows[index] = row;
		fillRow(li, row);
	}

	// The row leaves `from` and, updated, takes `index` among the rows without it.
	function moveRow(from, index, row) {
		const li = state.rowEls[from];
		if (!li) return;
		const focused = li.contains(document.activeElement) ? document.activeElement : null;
		state.rows.splice(from, 1);
		state.rowEls.splice(from, 1);
		fillRow(li, row);
		const before = state.rowEls[index] || null;
		if (li.nextSibling !== before) ui.list.insertBefore(li, before);
		state.rows.splice(index, 0, row);
		state.rowEls.splice(index, 0, li);
		// moving a node drops its focus: give it back (an edit in progress goes on)
		if (focused && document.activeElement !== focused) focused.focus({ preventScroll: true });
	}

	// All rows replaced: reuse each id's li, so that only what differs changes
	// (and focus or an edit in progress survives a reconnect).
	function resetRows(rows) {
		titles = null;
		const byId = new Map();
		for (const li of state.rowEls) byId.set(parts.get(li).row.id, li);
		const focused = document.activeElement;
		const elements = rows.map((row) => {
			const li = byId.get(row.id);
			if (!li) return createRowElement(row);
			byId.delete(row.id);
			if (JSON.stringify(parts.get(li).row) !== JSON.stringify(row)) fillRow(li, row);
			return li;
		});
		for (const li of byId.values()) {
			if (state.editing && state.editing.li === li) state.editing = null;
			li.remove();
		}
		let cursor = ui.list.firstElementChild;
		for (const li of elements) {
			if (li === cursor) cursor = cursor.nextElementSibling;
			else ui.list.insertBefore(li, cursor);
		}
		state.rows = rows.slice();
		state.rowEls = elements;
		if (focused && focused.isConnected && document.activeElement !== focused) focused.focus({ preventScroll: true });
	}

	// Grouped views: a header where a row's group differs from the row above's.
	function markGroupStarts() {
		let previous;
		state.rows.forEach((row, index) => {
			const starts = row.group !== null && row.group !== undefined && (index === 0 || row.group !== previous);
			setClass(state.rowEls[index], "group-start", starts);
			previous = row.group;
		});
	}

	function rowOf(li) {
		const p = parts.get(li);
		return p ? p.row : null;
	}

	function focusRowNear(index) {
		const li = state.rowEls[index] || state.rowEls[index - 1];
		if (li) parts.get(li).label.focus({ preventScroll: true });
		else ui.newTodo.focus({ preventScroll: true });
	}

	// ---------------------------------------------------------------------
	// Properties: everything besides the rows comes worded from todod
	// ---------------------------------------------------------------------

	function renderProperties() {
		const props = state.props;
		const noItems = state.rows.length === 0 && !(props.totalCount > 0);
		setHidden(ui.main, noItems);
		setHidden(ui.footer, noItems);

		renderCount(props.itemsLeft || "0 items left");
		ui.toggleAll.checked = props.allDone === true;
		setHidden(ui.clearCompleted, props.canClearCompleted !== true);
		for (const link of ui.filterLinks) {
			setClass(link, "selected", link.getAttribute("href") === FILTER_ROUTES[props.filter]);
			setAttr(link, "aria-current", link.getAttribute("href") === FILTER_ROUTES[props.filter] ? "page" : null);
		}

		renderHistoryButton(ui.undo, props.undoText, "Undo", props.canUndo);
		renderHistoryButton(ui.redo, props.redoText, "Redo", props.canRedo);

		setText(ui.overdueText, props.overdueText || "");
		setText(ui.dueTodayText, props.dueTodayText || "");

		const empty = state.rows.length === 0 && props.emptyText ? props.emptyText : "";
		setText(ui.emptyText, empty);
		setHidden(ui.emptyText, empty === "");

		// the query box shows the view's query, unless the person is typing one
		const query = typeof props.query === "string" ? props.query : "";
		if (state.rendered.query !== query) {
			state.rendered.query = query;
			if (document.activeElement !== ui.query) ui.query.value = query;
		}
		renderViewOptions();
	}

	// "2 items left" → <strong>2</strong> items left (split at the first space)
	function renderCount(itemsLeft) {
		if (state.rendered.itemsLeft === itemsLeft) return;
		state.rendered.itemsLeft = itemsLeft;
		const space = itemsLeft.indexOf(" ");
		const strong = document.createElement("strong");
		strong.textContent = space < 0 ? itemsLeft : itemsLeft.slice(0, space);
		ui.count.replaceChildren(strong, space < 0 ? "" : itemsLeft.slice(space));
	}

	function renderHistoryButton(button, text, fallback, enabled) {
		setText(button, text || fallback);
		setAttr(button, "title", text || fallback);
		if (button.disabled !== (enabled !== true)) button.disabled = enabled !== true;
	}

	// ---------------------------------------------------------------------
	// Adding: the input is cleared only once todod acknowledges the add
	// ---------------------------------------------------------------------

	function submitNewTodo() {
		const title = ui.newTodo.value.trim();
		if (title === "") return;
		state.pendingAdd = title;
		clearAlert();
		if (!isOpen() || !state.sub || state.sub.connection !== conn.serial) {
			state.pendingAddNotice = "todod is not connected: “" + title + "” will be added once it is back.";
			showAlert(state.pendingAddNotice);
			return;
		}
		sendPendingAdd();
	}

	function sendPendingAdd() {
		const title = state.pendingAdd;
		if (title === null || state.addInFlight) return;
		// typed on since Enter: the person is not done with it, so wait for the next Enter
		if (ui.newTodo.value.trim() !== title) {
			state.pendingAdd = null;
			return;
		}
		state.addInFlight = true;
		// todod's shorthand, as todoctl add reads it: "buy milk +errands due:fri"
		request("todo.add", { text: title }).then(
			() => {
				if (state.pendingAdd === title) state.pendingAdd = null;
				if (ui.newTodo.value.trim() === title) ui.newTodo.value = "";
				// the notice that it would be added later is now done with
				if (state.pendingAddNotice !== null && ui.alert.textContent === state.pendingAddNotice) clearAlert();
				state.pendingAddNotice = null;
			},
			(err) => {
				if (err.connectionLost) return; // kept: sent again once reconnected
				if (state.pendingAdd === title) state.pendingAdd = null;
				showAlert(err.message);
			}).finally(() => {
			state.addInFlight = false;
			if (state.pendingAdd !== null && state.pendingAdd !== title && isOpen()) sendPendingAdd();
		});
	}

	// ---------------------------------------------------------------------
	// Editing a row
	// ---------------------------------------------------------------------

	function startEditing(li, text) {
		const row = rowOf(li);
		if (!row) return;
		if (state.editing && state.editing.li !== li) commitEdit(state.editing, false);
		if (state.editing) return;
		const input = document.createElement("input");
		input.className = "edit";
		input.value = text !== undefined ? text : row.title;
		input.setAttribute("aria-label", "Edit " + row.title);
		li.classList.add("editing");
		parts.get(li).view.after(input);
		state.editing = { id: row.id, li: li, input: input };
		input.focus();
		input.setSelectionRange(input.value.length, input.value.length);
	}

	function endEditing(editing, refocus) {
		if (state.editing === editing) state.editing = null;
		editing.li.classList.remove("editing");
		editing.input.remove();
		if (refocus && editing.li.isConnected) parts.get(editing.li).label.focus({ preventScroll: true });
	}

	// Enter or blur: save trimmed; an empty title removes the item.
	function commitEdit(editing, refocus) {
		if (state.editing !== editing) return;
		const title = editing.input.value.trim();
		if (!isOpen()) {
			// keep the edit open: nothing typed is lost while todod is away
			showAlert("todod is not connected: press Enter to save once it is back.");
			return;
		}
		const li = editing.li;
		const row = rowOf(li);
		endEditing(editing, refocus);
		if (!row || !li.isConnected) return;
		if (title === "") {
			userRequest("todo.remove", { id: row.id }).catch(ignore);
		} else if (title !== row.title) {
			userRequest("todo.edit", { id: row.id, title: title }).catch((err) => {
				// refused (e.g. todo.invalidTitle): give the text back to fix it
				if (!err.connectionLost && li.isConnected && !state.editing) startEditing(li, title);
			});
		}
	}

	function cancelEdit(editing) {
		if (state.editing !== editing) return;
		endEditing(editing, true);
	}

	// ---------------------------------------------------------------------
	// Notes
	// ---------------------------------------------------------------------

	function toggleNotes(li) {
		const p = parts.get(li);
		if (p.notesButton.getAttribute("aria-expanded") === "true") closeNotes(li);
		else loadNotes(li);
	}

	function closeNotes(li) {
		const p = parts.get(li);
		setAttr(p.notesButton, "aria-expanded", "false");
		setHidden(p.notes, true);
		p.notes.replaceChildren();
	}

	function loadNotes(li) {
		const p = parts.get(li);
		setAttr(p.notesButton, "aria-expanded", "true");
		// not a userRequest: a refetch after someone else's change must not clear the alert
		request("todo.get", { id: p.row.id }).then((details) => {
			if (p.notesButton.getAttribute("aria-expanded") !== "true") return;
			const list = document.createElement("ul");
			list.className = "notes-list";
			list.setAttribute("aria-label", "Notes of " + p.row.title);
			for (const note of details.notes) {
				const item = document.createElement("li");
				const text = span("note-text");
				text.textContent = note.text;
				const added = span("note-added");
				added.textContent = note.addedText;
				item.append(text, " ", added);
				list.append(item);
			}
			p.notes.replaceChildren(list);
			setHidden(p.notes, false);
		}, (err) => {
			showAlert(err.message);
			closeNotes(li);
		});
	}

	// ---------------------------------------------------------------------
	// Events from the person
	// ---------------------------------------------------------------------

	function rowFromEvent(event) {
		const li = event.target.closest(".todo-list > li");
		return li && parts.has(li) ? li : null;
	}

	function bindEvents() {
		ui.newTodo.addEventListener("keydown", (event) => {
			if (event.key === "Enter" && !event.isComposing) submitNewTodo();
		});

		ui.toggleAll.addEventListener("change", () => {
			// the view model says what it is once todod has answered
			userRequest("todo.toggleAll").catch(ignore).finally(renderProperties);
		});

		ui.clearCompleted.addEventListener("click", () => {
			userRequest("todo.clearCompleted").catch(ignore);
		});

		ui.undo.addEventListener("click", () => userRequest("todo.undo").catch(ignore));
		ui.redo.addEventListener("click", () => userRequest("todo.redo").catch(ignore));
		ui.alertDismiss.addEventListener("click", clearAlert);

		ui.list.addEventListener("change", (event) => {
			if (!event.target.classList.contains("toggle")) return;
			const li = rowFromEvent(event);
			if (!li) return;
			const checkbox = event.target;
			userRequest("todo.setDone", { id: rowOf(li).id, done: checkbox.checked })
				.catch(ignore)
				.finally(() => {
					// back to what the view model says (the event came before the reply)
					const row = rowOf(li);
					if (row) checkbox.checked = row.done;
				});
		});

		ui.list.addEventListener("click", (event) => {
			const li = rowFromEvent(event);
			if (!li) return;
			if (event.target.classList.contains("destroy")) {
				userRequest("todo.remove", { id: rowOf(li).id }).catch(ignore);
			} else if (event.target.classList.contains("notes-toggle")) {
				toggleNotes(li);
			}
		});

		ui.list.addEventListener("dblclick", (event) => {
			if (event.target.tagName !== "LABEL") return;
			const li = rowFromEvent(event);
			if (li) startEditing(li);
		});

		ui.list.addEventListener("keydown", onListKeydown);

		// blur saves; a deferred look tells a real blur from a row moved under the edit
		ui.list.addEventListener("focusout", (event) => {
			const editing = state.editing;
			if (!editing || event.target !== editing.input) return;
			setTimeout(() => {
				if (state.editing === editing && document.activeElement !== editing.input) commitEdit(editing, false);
			}, 0);
		});

		ui.query.addEventListener("keydown", (event) => {
			if (event.key === "Enter" && !event.isComposing) {
				event.preventDefault();
				applyQuery(ui.query.value.trim());
			} else if (event.key === "Escape") {
				event.preventDefault();
				applyQuery(null);
			}
		});

		// the search box's own clear button: every item again
		ui.query.addEventListener("search", () => {
			if (ui.query.value === "") applyQuery("");
		});

		ui.viewSelect.addEventListener("change", () => chooseView(ui.viewSelect.value));
		// the list of views may have changed elsewhere: refresh it when the switcher is used
		ui.viewSelect.addEventListener("focus", () => {
			if (isOpen()) loadViewList().catch(ignore);
		});

		window.addEventListener("hashchange", onRouteChange);
	}

	function onListKeydown(event) {
		const li = rowFromEvent(event);
		if (!li) return;
		const editing = state.editing;
		if (editing && event.target === editing.input) {
			if (event.key === "Enter" && !event.isComposing) {
				event.preventDefault();
				commitEdit(editing, true);
			} else if (event.key === "Escape") {
				event.preventDefault();
				cancelEdit(editing);
			}
			return;
		}
		if (event.key === "F2" || (event.key === "Enter" && event.target.tagName === "LABEL")) {
			event.preventDefault();
			startEditing(li);
		} else if (event.key === "Delete") {
			event.preventDefault();
			userRequest("todo.remove", { id: rowOf(li).id }).catch(ignore);
		}
	}

	// Enter in the query box: an own view with that query; Escape: the named view's.
	function applyQuery(text) {
		const named = state.namedViews.get(state.viewName);
		const previous = state.customQuery;
		state.customQuery = text === null || (named && text === named.query) ? null : text;
		if (text === null) {
			state.rendered.query = undefined; // show the named view's query again
		}
		clearQueryError();
		resubscribe().then(() => {
			if (text === null) ui.query.value = typeof state.props.query === "string" ? state.props.query : "";
		}, (err) => {
			state.customQuery = previous; // keep watching what was shown
			if (err.name === "todo.invalidQuery") showQueryError(err.message);
			else showAlert(err.message);
		});
	}

	function showQueryError(message) {
		setText(ui.queryError, message);
		setHidden(ui.queryError, false);
		ui.query.setAttribute("aria-invalid", "true");
	}

	function clearQueryError() {
		setText(ui.queryError, "");
		setHidden(ui.queryError, true);
		ui.query.removeAttribute("aria-invalid");
	}

	// The switcher: show the chosen view as it is saved (its own filter).
	function chooseView(name) {
		rememberView(name);
		state.customQuery = null;
		clearQueryError();
		const named = state.namedViews.get(name);
		navigate(routeFor(named ? named.filter : "all", name));
	}

	function navigate(hash) {
		if (location.hash === hash) onRouteChange();
		else location.hash = hash; // hashchange follows
	}

	function onRouteChange() {
		const route = readRoute();
		if (route.view) rememberView(route.view);
		renderViewOptions();
		// a view saved since view.list was read: its filter decides how to watch it
		const known = state.namedViews.has(state.viewName) || !isOpen() ? Promise.resolve() : loadViewList();
		known.then(resubscribe).catch((err) => showAlert(err.message));
	}

	// ---------------------------------------------------------------------
	// Start
	// ---------------------------------------------------------------------

	function start() {
		const route = readRoute();
		rememberView(route.view || storedView() || "main");
		renderViewOptions();
		bindEvents();
		connect();
	}

	start();
})();
