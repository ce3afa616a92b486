// The Gate of R'lyeh in a browser: the lobby (index.html) and the table page (table.html), which is
// a seat (/table/ID#seat=N&token=T), a watcher of a table of bots (/watch/ID) or a replay (/replay/ID).
// Plain DOM, no libraries, no build step. The server's JSON holds small integer enums: the tables
// below name them as the `label`s of rlyeh_env/engine/cards.py and state.py do, so the words match
// the terminal table.

// -- names ---------------------------------------------------------------------------------------

const SIGILS = ["Ithaqua", "Zhar", "Dagon", "Bokrug"];
const ROLES = ["Investigator", "Cultist"];
const CHARACTERS = ["Antiquarian", "Gambler", "Heiress", "Detective", "Sailor", "Photographer", "Priest", "Doctor"];
const PHOBIAS = [ // [label, what it does] (the character of the same index has it)
  ["Tomes", "loses 1 sanity after Researching"], ["Chance", "loses 1 sanity after Gambling"],
  ["Suspicion", "loses 1 sanity when accused"], ["Guilt", "loses 1 sanity after voting Yes on an investigator"],
  ["Despair", "loses 1 sanity whenever an incantation fails"],
  ["Exposure", "loses 1 sanity when cursed or targeted by equipment"],
  ["Dissent", "loses 1 sanity when a vote they backed fails"], ["Witness", "loses 1 sanity when a cultist is revealed"],
];
const EQUIPMENT = [
  ["Lantern", "once: privately see 2 random face-down pool cards"],
  ["Ritual knife", "once: discard 1 random face-down pool card, unseen"],
  ["Compass", "once: turn the target to another sigil not yet activated"],
  ["Pistol", "once: a chosen player discards their hand and draws a new one"],
  ["Spyglass", "once: privately see a chosen player's hand"],
  ["Amulet", "once: regain 1 sanity and discard your Insanity cards"],
  ["Almanac", "once: privately see the top 3 cards of the Mythos deck"],
  ["Ouija board", "once: privately learn a chosen player's role; costs 1 sanity"],
];
const INSANITY = [
  ["Paralysis", "you may not Investigate"], ["Hoarding", "you may not Contribute (Gamble is still allowed)"],
  ["Gambling fever", "Gamble is your only main action while a card can be drawn"],
  ["Babbling", "every card you put into the pool goes face up"],
  ["Catatonia", "you may not Accuse or propose the Necronomicon; you vote No"],
  ["Paranoia", "you vote Yes (Catatonia wins over it)"],
];
const GODS = [ // the four basic gods have no rule; the extra gods (variant) do
  ["Ithaqua", ""], ["Zhar", ""], ["Dagon", ""], ["Bokrug", ""],
  ["Hastur", "needs one more matching card"], ["Tsathoggua", "needs one fewer matching card; success costs an hour"],
  ["Cthugha", "success turns the clock back an hour"], ["Nyarlathotep", "each opposite card cancels two matches"],
  ["Shub niggurath", "success refills every hand"],
];
const PAGES = [
  ["Turn back time", "the clock goes back"], ["Forbidden lore", "every hand is refilled and the clock goes back one hour"],
  ["Doom", "Cthulhu wakes: the cultists win at once"],
];
const PHASES = [ // what the decider does (terminal/views.py PHASE_TEXT), and what a seat is asked
  ["declares the target sigil", "Declare the target sigil"],
  ["takes a turn", "Your turn: free actions first, then one main action"],
  ["discards (Research)", "Research: discard a card, or stop and refill your hand"],
  ["plays a gambled card", "Gamble: play one of the cards you drew"],
  ["investigates: takes a card", "Investigate: take a card you saw, or keep your hand"],
  ["investigates: gives a card", "Investigate: give a card in its place"],
  ["votes", "Cast your vote"], ["reads the Necronomicon", "Read the Necronomicon: enact one page"],
  ["aims their equipment", "Choose a player for your equipment"], ["turns the compass", "Turn the compass: name the new target"],
];
const GAME_OVER = 10, GAMBLE_PLAY = 3, NECRONOMICON_PAGE = 7;
const WINNERS = ["Nobody", "Investigators", "Cultists"];
const END_WHY = ["", "the fourth sigil was activated", "the clock struck midnight",
  "the Necronomicon's Doom page was read: Cthulhu wakes"];
const MIDNIGHT = 12;
const SEAT_KINDS = { human: "Person", checkpoint: "Checkpoint bot", v0: "v0 bot", random: "Random bot",
  heuristic: "Heuristic bot" };
// close codes after which the page must not reconnect (app.py, rooms.py)
const NO_RETRY = new Set([4000, 4001, 4401, 4403, 4404]);

const playerName = (seat) => `player_${seat}`;
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// -- DOM helpers ---------------------------------------------------------------------------------

const $ = (selector) => document.querySelector(selector);

// h("p", {class: "x", data: {seat: 2}, onclick: f}, "text", child, [more]) -> an element
function h(tag, props = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "data") Object.assign(el.dataset, value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key in el) el[key] = value;
    else el.setAttribute(key, value);
  }
  el.append(...kids.flat(Infinity).filter((kid) => kid != null && kid !== false && kid !== ""));
  return el;
}

function svg(tag, attrs = {}, ...kids) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  el.append(...kids);
  return el;
}

// Fill section `id` with a heading and `kids` and show it; no kids hides it.
function panel(id, title, ...kids) {
  const el = document.getElementById(id);
  const content = kids.flat(Infinity).filter((kid) => kid != null && kid !== false);
  el.replaceChildren(...(content.length && title ? [h("h2", {}, title)] : []), ...content);
  el.hidden = !content.length;
  return el;
}

function setStatus(text, kind = "", ...extra) {
  const el = $("#status");
  el.replaceChildren(text, ...extra);
  el.className = `status ${kind}`;
}

const sigilChip = (sigil, note) => h("span", { class: `chip s${sigil}`, title: SIGILS[sigil] }, SIGILS[sigil],
  note ? h("small", {}, note) : null);
const backChip = () => h("span", { class: "chip back", title: "face down" }, "?");
const roleChip = (role) => h("span", { class: `role r${role}` }, ROLES[role]);
const none = (text = "none") => h("span", { class: "dim" }, text);

// A hand of sigil counts as chips, one per card
function cardChips(counts) {
  const chips = counts.flatMap((count, sigil) => Array.from({ length: count }, () => sigilChip(sigil)));
  return chips.length ? h("span", { class: "chips" }, chips) : none("no cards");
}

// -- the board -----------------------------------------------------------------------------------

// A clock face: midnight at the top, struck hours filled, the hours left hollow, a hand at the hour.
function clockFace(board) {
  const left = MIDNIGHT - board.hour;
  const face = svg("svg", { viewBox: "-50 -50 100 100", class: "clock", role: "img", "data-hour": board.hour },
    svg("title", {}, `Clock: ${board.hour}:00, ${plural(left, "hour")} to midnight`),
    svg("circle", { r: 47, class: "rim" }));
  for (let hour = 1; hour <= MIDNIGHT; hour++) {
    const angle = (hour * Math.PI) / 6;
    const state = hour <= board.first_hour ? "before" : hour <= board.hour ? "struck" : "ahead";
    face.append(svg("circle", { cx: (38 * Math.sin(angle)).toFixed(2), cy: (-38 * Math.cos(angle)).toFixed(2),
      r: hour === MIDNIGHT ? 6 : 4.2, class: `hour ${state}${hour === MIDNIGHT ? " midnight" : ""}` }));
  }
  const angle = (board.hour * Math.PI) / 6;
  face.append(svg("line", { x1: 0, y1: 0, x2: (27 * Math.sin(angle)).toFixed(2), y2: (-27 * Math.cos(angle)).toFixed(2),
    class: "hand" }), svg("circle", { r: 3.5, class: "pin" }));
  return h("figure", { class: `clock-box${left <= 2 ? " late" : ""}` }, face,
    h("figcaption", {}, h("strong", {}, `${board.hour}:00`), ` · ${plural(left, "hour")} to midnight`));
}

function sigilList(board) {
  return h("ul", { class: "sigils" }, SIGILS.map((name, s) => {
    const [god, rule] = GODS[board.gods[s]];
    const state = board.activated[s] ? "activated" : s === board.target ? "target" : "idle";
    const mark = { activated: "✔ activated", target: "◎ target", idle: "" }[state];
    return h("li", { class: `sigil s${s} ${state}`, data: { sigil: s, state } }, h("strong", {}, name),
      mark && h("span", { class: "mark" }, mark), rule && h("small", {}, `${god}: ${rule}`));
  }));
}

// The pool as the table sees it (sigil or -1), or with `truth` (pool cards with their contributors)
function poolRow(board, truth) {
  const cards = truth
    ? truth.map((c) => h("span", { class: `chip s${c.sigil}${c.face_up ? "" : " hidden-card"}`,
      title: c.face_up ? "face up" : "face down" }, SIGILS[c.sigil], h("small", {}, playerName(c.contributor))))
    : board.pool.map((s) => (s >= 0 ? sigilChip(s) : backChip()));
  return h("div", { class: "pool", id: "pool" }, h("span", { class: "label" }, `Pool ${board.pool.length}/${board.incantation_size}`),
    cards.length ? h("span", { class: "chips" }, cards) : none("empty"),
    truth && cards.length > 0 && h("small", { class: "dim" }, "dashed: face down, under each card who put it in"));
}

function cultistText(board) {
  if (board.cultists < 0) return `${board.cultist_range[0]} to ${board.cultist_range[1]} cultists (nobody is told how many)`;
  return `${plural(board.cultists, "cultist")} at this table`;
}

function voteText(vote) {
  return vote.kind === 0 ? `${playerName(vote.proposer)} accuses ${playerName(vote.accused)} of being a cultist`
    : `${playerName(vote.proposer)} proposes consulting the Necronomicon`;
}

function renderBoard(board, truthPool) {
  const turn = board.phase === GAME_OVER ? h("p", { class: "turn over" }, `Game over: the ${WINNERS[board.winner].toLowerCase()} win`)
    : h("p", { class: "turn" }, h("strong", {}, playerName(board.decider)), ` ${PHASES[board.phase][0]}`);
  panel("board", `Round ${board.round + 1}`,
    h("div", { class: "board-top" }, clockFace(board), sigilList(board)),
    poolRow(board, truthPool),
    h("p", { class: "dim" }, `Mythos deck ${board.deck} · discard pile ${board.discard} · ${cultistText(board)}`),
    board.vote && h("p", { class: "vote", id: "vote" }, "Vote under way: ", voteText(board.vote)),
    turn);
}

// Every player's public status; `roles` per seat (-1 unknown), `hands` (truth) and `kinds` optional
function renderPlayers(board, { roles, you = -1, hands = null, kinds = [] }) {
  panel("players", "Players", h("div", { class: "player-grid" }, board.players.map((p) => {
    const [phobia, fear] = PHOBIAS[p.phobia];
    const [item, itemText] = EQUIPMENT[p.equipment];
    const deciding = board.phase !== GAME_OVER && board.decider === p.seat;
    const role = roles[p.seat];
    const roleNote = role < 0 ? "" : p.revealed_role >= 0 ? " (revealed)" : hands || p.seat === you ? "" : " (you know)";
    return h("article", { class: `player${p.seat === you ? " me" : ""}${deciding ? " deciding" : ""}`, data: { seat: p.seat } },
      h("header", {}, h("strong", {}, playerName(p.seat)), p.seat === you && " (you)",
        p.seat === board.watch && h("span", { class: "badge watch", title: "holds the pocket watch: starts the round" }, "pocket watch"),
        deciding && h("span", { class: "badge now" }, "deciding"),
        kinds[p.seat] && kinds[p.seat] !== "human" && h("span", { class: "badge bot" }, kinds[p.seat])),
      h("p", { title: `${phobia}: ${fear}` }, CHARACTERS[p.character], h("span", { class: "dim" }, ` (${phobia.toLowerCase()})`)),
      h("p", { class: "sanity", title: `sanity ${p.sanity}/${board.start_sanity}` }, p.mad ? h("strong", { class: "mad" }, "MAD")
        : [h("span", { class: "hearts" }, "♥".repeat(p.sanity)), h("span", { class: "dim" }, "♡".repeat(Math.max(0, board.start_sanity - p.sanity)))]),
      h("p", {}, hands ? cardChips(hands[p.seat]) : plural(p.cards, "card")),
      h("p", { class: p.equipment_used ? "used" : "", title: itemText }, item, p.equipment_used && " (used)"),
      h("p", { class: "role-line" }, role >= 0 ? [roleChip(role), roleNote] : none("role unknown")),
      p.insanity.length > 0 && h("p", { class: "insanity" }, p.insanity.map((c) => h("span", { class: "tag", title: INSANITY[c][1] }, INSANITY[c][0]))));
  })));
}

function renderLog(lines, title = "What happened") {
  const old = $("#log .log-lines"); // follow the newest line unless the reader scrolled back
  const follow = !old || old.scrollTop + old.clientHeight >= old.scrollHeight - 8;
  const list = h("ol", { class: "log-lines" }, lines.map(({ text, private: secret, who }) =>
    h("li", { class: secret ? "private" : "" }, secret && h("span", { class: "tag" }, who ? `${who} only` : "only you"), text)));
  panel("log", title, lines.length ? list : none("nothing yet"));
  list.scrollTop = follow ? list.scrollHeight : old.scrollTop;
}

function incantationList(incantations) {
  if (!incantations.length) return [];
  return h("ol", { class: "incantations" }, incantations.map((r, i) =>
    h("li", { class: `incantation ${r.success ? "success" : "failure"}`, data: { index: i } },
      h("p", {}, h("strong", {}, `${i + 1}. ${SIGILS[r.target]}`), r.success ? " succeeded" : " failed", h("span", { class: "dim" }, ` at ${r.hour}:00`)),
      h("span", { class: "chips" }, r.played.map((c) => sigilChip(c.sigil, playerName(c.seat)))))));
}

// The result: who won and why, every role, every incantation's cards and who played them
function renderResult(truth, { seat = -1, kinds = [], table }) {
  const board = truth.board;
  document.body.dataset.over = board.phase === GAME_OVER;
  if (board.phase !== GAME_OVER) return panel("result", "");
  const mine = seat >= 0 ? truth.roles[seat] : -1;
  const won = mine >= 0 && (board.winner === 2) === (mine === 1);
  panel("result", `The ${WINNERS[board.winner].toLowerCase()} win`,
    h("p", { class: "why" }, `Because ${END_WHY[board.end_reason]}.`,
      mine >= 0 && h("strong", { class: won ? "won" : "lost" }, ` You were ${mine === 1 ? "a cultist" : "an investigator"}: you ${won ? "win" : "lose"}.`)),
    h("ul", { class: "result-roles" }, truth.roles.map((role, s) =>
      h("li", { class: "result-role", data: { seat: s, role } }, h("strong", {}, playerName(s)),
        kinds[s] && h("span", { class: "dim" }, ` ${(SEAT_KINDS[kinds[s]] || kinds[s]).toLowerCase()}`), " ", roleChip(role)))),
    h("h3", {}, "Incantations"), truth.incantations.length ? incantationList(truth.incantations) : none("none was completed"),
    table && h("p", {}, h("a", { href: `/replay/${table}`, class: "replay-link" }, "Replay the whole game, every secret shown →")));
}

// -- a seat (/table/ID#seat=N&token=T) -------------------------------------------------------------

function youPanel(view) {
  const me = view.board.players[view.seat];
  const [phobia, fear] = PHOBIAS[me.phobia];
  const [item, itemText] = EQUIPMENT[me.equipment];
  const line = (label, ...what) => h("p", {}, h("span", { class: "label" }, label), ...what);
  const knows = [];
  if (view.pool_mine.some(Boolean)) knows.push(line("You put into this pool: ", cardChips(view.pool_mine)));
  if (view.pool_look_size) knows.push(line(`Your last look at this pool (${plural(view.pool_look_size, "card")}): `, cardChips(view.pool_look)));
  view.seen_hands.forEach((hand, s) => hand && s !== view.seat && knows.push(line(`You saw ${playerName(s)}'s hand: `, cardChips(hand))));
  if (view.deck_top.length) knows.push(line("Next Mythos cards: ", h("span", { class: "chips" }, view.deck_top.map((c) => sigilChip(c)))));
  view.known_roles.forEach((role, s) => role >= 0 && s !== view.seat && knows.push(line(`${playerName(s)} is `, roleChip(role))));
  if (view.board.decider === view.seat && view.board.phase === GAMBLE_PLAY && view.gamble_cards.length)
    knows.push(line("You drew: ", h("span", { class: "chips" }, view.gamble_cards.map((c) => sigilChip(c)))));
  if (view.board.decider === view.seat && view.board.phase === NECRONOMICON_PAGE)
    view.pages.forEach((page) => knows.push(line("The book shows: ", h("strong", {}, PAGES[page][0]), ` - ${PAGES[page][1]}`)));
  panel("you", `You: ${playerName(view.seat)}`,
    h("p", { class: `you-role r${view.role}`, id: "my-role" }, view.role === 1 ? "You are a " : "You are an ", roleChip(view.role),
      view.role === 1 && h("span", { class: "dim" }, " (cultists do not know each other)")),
    line("Hand: ", h("span", { id: "my-hand" }, cardChips(view.hand))),
    line("Sanity: ", me.mad ? h("strong", { class: "mad" }, "MAD (no Investigate, no Necronomicon, your cards go in face up)") : `${me.sanity}/${view.board.start_sanity}`),
    line("Character: ", `${CHARACTERS[me.character]}, who ${fear}`),
    line("Equipment: ", item, h("span", { class: "dim" }, me.equipment_used ? " (used)" : ` - ${itemText}`)),
    [...new Set(me.insanity)].map((c) => line("Insanity: ", h("span", { class: "tag" }, INSANITY[c][0]), ` ${INSANITY[c][1]}`)),
    knows.length > 0 && h("div", { class: "knows", id: "knows" }, h("h3", {}, "What you know"), knows));
}

function startSeat(table) {
  const params = new URLSearchParams(location.hash.slice(1));
  const seat = Number.parseInt(params.get("seat"), 10), token = params.get("token");
  if (!(seat >= 0) || !token) {
    setStatus("This link is incomplete: a seat's link ends with #seat=N&token=… (ask whoever opened the table).", "error");
    return;
  }
  let shown = null, busy = false, notice = "";
  const conn = connect(`/ws/table/${table}`, { type: "join", seat, token }, (message) => {
    if (message.type === "view") {
      shown = message; busy = false;
      drawSeat(message);
      if (notice) setStatus(`⚠ ${notice}`, "warn");
    } else if (message.type === "error") {
      notice = message.message;
      setStatus(`⚠ ${message.message}`, message.fatal ? "error" : "warn");
      if (message.fatal) clearTable();
    } else if (message.type === "closed") closedStatus(message);
  });

  function act(action) {
    if (busy || !shown || !conn.send({ type: "act", action, step: shown.step })) return;
    busy = true; notice = "";
    document.querySelectorAll("button.choice").forEach((b) => { b.disabled = true; });
    setStatus("Your choice is sent…", "busy");
  }

  function drawSeat(message) {
    const { view, result } = message, board = view.board;
    document.body.dataset.step = message.step;
    const deciding = board.phase !== GAME_OVER && board.decider === view.seat;
    const over = board.phase === GAME_OVER;
    setStatus(over ? "The game is over." : deciding ? "Your decision." : `Waiting for ${playerName(board.decider)}.`, deciding ? "yours" : "");
    document.title = `${deciding ? "● " : ""}The Gate of R'lyeh: ${playerName(view.seat)}`;
    if (result) renderResult(result, { seat: view.seat, kinds: message.seats, table: message.table });
    const decision = panel("decision", deciding ? PHASES[board.phase][1] : "", deciding ? [
      board.vote && h("p", { class: "vote" }, voteText(board.vote)),
      h("p", { class: "decision-hand" }, h("span", { class: "label" }, "Your hand: "), cardChips(view.hand)),
      h("div", { class: "choices" }, view.choices.map((c) => h("button", { type: "button", class: "choice", data: { action: c.action },
        onclick: () => act(c.action) }, c.text)))]
      : !over && h("p", { class: "waiting" }, h("strong", {}, playerName(board.decider)), ` ${PHASES[board.phase][0]}…`));
    decision.classList.toggle("mine", deciding);
    renderBoard(board);
    youPanel(view);
    // once the game is over, every role and hand is shown
    renderPlayers(board, { roles: result ? result.roles : view.known_roles, hands: result?.hands, you: view.seat, kinds: message.seats });
    renderLog(view.log);
  }
}

// -- watching a table of bots (/watch/ID) and replaying a finished game (/replay/ID) -------------------

// Everything of a truth dict: board and pool with contributors, roles and hands, incantations, beliefs
function drawTruth(truth, { kinds, table, log, logTitle }) {
  renderResult(truth, { kinds, table });
  renderBoard(truth.board, truth.pool);
  renderPlayers(truth.board, { roles: truth.roles, hands: truth.hands, kinds });
  panel("incantations", "Incantations", incantationList(truth.incantations));
  renderBeliefs(truth);
  renderLog(log.map((line) => { // "[player_2 privately] you drew Zhar": seen by player_2 alone
    const [, who, text] = line.match(/^\[(player_\d+) privately\] (.*)$/) || [null, null, line];
    return { text, private: !!who, who };
  }), logTitle);
}

// Each checkpoint bot's P(cultist) of every seat (null: itself, or before its first decision)
function renderBeliefs(truth) {
  const rows = Object.entries(truth.suspicions || {});
  const seats = truth.roles.map((_, s) => s);
  panel("beliefs", "What the checkpoint bots believe: P(cultist)", rows.length > 0 && h("div", { class: "scroll" }, h("table", { class: "beliefs" },
    h("thead", {}, h("tr", {}, h("th", {}, "bot"), seats.map((s) => h("th", {}, playerName(s), h("br"), roleChip(truth.roles[s]))))),
    h("tbody", {}, rows.map(([bot, row]) => h("tr", { data: { bot } }, h("th", {}, playerName(bot)),
      row.map((p, s) => h("td", p == null ? { class: "dim" } : { class: "belief", data: { seat: s, p } },
        p == null ? "–" : [`${Math.round(100 * p)}%`, h("meter", { min: 0, max: 1, low: 0.25, high: 0.5, optimum: 0, value: p })]))))))));
}

function startWatch(table) {
  let paused = false, over = false, last = null;
  const conn = connect(`/ws/watch/${table}`, null, (message) => {
    if (message.type === "truth") {
      ({ paused, over } = message); last = message;
      document.body.dataset.step = message.step;
      setStatus(over ? "The game is over." : paused ? `Paused at step ${message.step}.` : `Playing: step ${message.step}.`);
      drawTruth(message.truth, { kinds: message.seats, table: over && table, log: message.log });
      drawControls();
    } else if (message.type === "error") setStatus(`⚠ ${message.message}`, message.fatal ? "error" : "warn");
    else if (message.type === "closed") closedStatus(message);
  }, () => { // a #paused link pauses the table as soon as it opens (once)
    if (location.hash === "#paused") conn.send({ type: "pause" });
    history.replaceState(null, "", location.pathname);
  });
  const button = (id, text, type, enabled) => h("button", { type: "button", id, disabled: !enabled, onclick: () => conn.send({ type }) }, text);
  function drawControls() {
    panel("controls", "", h("div", { class: "buttons" },
      button("pause", "Pause", "pause", !paused && !over), button("resume", "Resume", "resume", paused && !over),
      button("next", "Next move", "next", paused && !over),
      h("span", { class: "dim" }, `step ${last.step} · every secret is shown: this table has no people at it`)));
  }
}

async function getJSON(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  const body = await response.json().catch(() => ({ detail: `the server answered ${response.status}` }));
  if (!response.ok) throw new Error(body.detail || `the server answered ${response.status}`);
  return body;
}

async function startReplay(table) {
  let summary;
  try {
    summary = await getJSON(`/api/replay/${table}`);
  } catch (err) {
    setStatus(`⚠ ${err.message}`, "error");
    return;
  }
  const last = summary.steps;
  let step = Math.min(last, Math.max(0, Number.parseInt(new URLSearchParams(location.hash.slice(1)).get("step"), 10) || 0));
  let wanted = step; // the step last asked for: an older answer arriving late is dropped
  const range = h("input", { type: "range", id: "step-range", min: 0, max: last, value: step, "aria-label": "step",
    oninput: () => go(Number(range.value)) });
  const title = h("p", { id: "replay-title", class: "replay-title" });
  const button = (id, text, label, to) => h("button", { type: "button", id, title: label, "aria-label": label, onclick: () => go(to()) }, text);
  panel("controls", "", title, h("div", { class: "buttons steps" },
    button("step-start", "« first", "first step", () => 0), button("step-back", "◀ back", "previous step", () => step - 1),
    button("step-next", "next ▶", "next step", () => step + 1), button("step-end", "last »", "last step", () => last)), range);
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return; // the slider has arrows of its own
    if (e.key === "ArrowRight") go(step + 1);
    else if (e.key === "ArrowLeft") go(step - 1);
  });

  async function go(to) {
    wanted = Math.min(last, Math.max(0, to));
    try {
      const frame = await getJSON(`/api/replay/${table}/${wanted}`);
      if (frame.step !== wanted) return; // a newer request is on its way
      step = frame.step; range.value = step;
      history.replaceState(null, "", `#step=${step}`);
      document.body.dataset.step = step;
      title.textContent = frame.title;
      setStatus(`Replay of table ${table}: step ${step} of ${last}.`);
      drawTruth(frame.truth, { kinds: frame.seats, log: frame.log, logTitle: "This step" });
      $("#step-start").disabled = $("#step-back").disabled = step === 0;
      $("#step-next").disabled = $("#step-end").disabled = step === last;
    } catch (err) {
      setStatus(`⚠ ${err.message}`, "error");
    }
  }
  go(step);
}

// -- the connection ------------------------------------------------------------------------------

// A WebSocket to `path` that says `hello` first and reconnects with backoff when dropped, unless the
// server refused it (a fatal error, a closed table, a seat opened elsewhere).
function connect(path, hello, onMessage, onOpen) {
  let socket = null, tries = 0, stopped = false;
  const open = () => {
    let opened = false;
    socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`);
    socket.addEventListener("open", () => {
      opened = true;
      if (hello) socket.send(JSON.stringify(hello));
      onOpen?.();
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type !== "error") tries = 0;
      if ((message.type === "error" && message.fatal) || message.type === "closed") stopped = true;
      onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      if (stopped) return;
      if (NO_RETRY.has(event.code)) {
        stopped = true;
        if (event.code === 4000) setStatus("⚠ This seat was opened in another window. Reload this page to take it back here.", "error");
        return;
      }
      const wait = Math.min(30, 2 ** tries++);
      // a refused handshake (the server down, or this page's address not one it allows) never opens
      setStatus(`${opened ? "Connection lost" : "Cannot reach the table"}; reconnecting in ${plural(wait, "second")}…`, "warn");
      setTimeout(open, wait * 1000);
    });
  };
  open();
  return { send: (message) => socket?.readyState === WebSocket.OPEN && (socket.send(JSON.stringify(message)), true) };
}

function closedStatus(message) {
  setStatus(`The table is closed: ${message.reason}. `, "warn", h("a", { href: message.replay }, "Its replay"));
}

function clearTable() {
  for (const id of ["decision", "board", "you", "players", "log", "incantations", "beliefs", "controls"]) panel(id, "");
}

// -- the lobby (/) -----------------------------------------------------------------------------

async function startLobby() {
  let options;
  try {
    options = await getJSON("/api/options");
  } catch (err) {
    setStatus(`⚠ Cannot read the lobby's options: ${err.message}`, "error");
    return;
  }
  const size = $("#size"), seats = $("#seats"), form = $("#new-table");
  size.replaceChildren(...options.sizes.map((n) => h("option", { value: n, selected: n === 5 }, `${n} players`)));
  $("#bot-delay").textContent = `Bots wait ${options.bot_delay} s before each move.`;
  const drawSeats = () => {
    const before = [...seats.querySelectorAll("select")].map((s) => s.value);
    seats.replaceChildren(h("legend", {}, "Who sits where"), ...Array.from({ length: Number(size.value) }, (_, i) => {
      const value = before[i] ?? (i === 0 ? "human" : options.default_bot);
      return h("label", { class: "seat-row" }, h("span", {}, playerName(i)), h("select", { name: `seat${i}`, data: { seat: i } },
        options.seats.map((name) => h("option", { value: name, selected: name === value }, SEAT_KINDS[name] || name))));
    }));
  };
  size.addEventListener("change", drawSeats);
  drawSeats();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const seedText = $("#seed").value.trim();
    const seed = seedText === "" ? null : Number(seedText);
    if (seed !== null && !(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31)) {
      setStatus("⚠ The seed must be a whole number from 0 to 2147483647, or left empty.", "error");
      return;
    }
    const body = { seats: [...seats.querySelectorAll("select")].map((s) => s.value), seed,
      extra_gods: $("#extra_gods").checked, hidden_cultists: $("#hidden_cultists").checked, sample: $("#sample").checked };
    $("#create").disabled = true;
    setStatus("Opening the table…", "busy");
    try {
      const response = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const answer = await response.json().catch(() => ({ detail: `the server answered ${response.status}` }));
      if (response.status !== 201) throw new Error(answer.detail || `the server answered ${response.status}`);
      showTable(answer);
      setStatus("The table is open.", "yours");
    } catch (err) {
      setStatus(`⚠ ${err.message}`, "error");
    } finally {
      $("#create").disabled = false;
    }
  });
}

// A created table's links: one secret join link per person, a watch link for bots only, the replay
async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch { // no clipboard API outside a secure context: copy the selected field instead
    button.previousElementSibling.select();
    document.execCommand("copy");
  }
  button.textContent = "Copied";
  setTimeout(() => { button.textContent = "Copy"; }, 1500);
}

function linkRow(label, path, props = {}) {
  const url = new URL(path, location.origin).href;
  const field = h("input", { type: "text", readOnly: true, value: url, "aria-label": label, onfocus: () => field.select() });
  const copyButton = h("button", { type: "button", class: "copy", onclick: () => copy(url, copyButton) }, "Copy");
  return h("div", { class: "link-row", data: props }, h("span", { class: "label" }, label), h("div", { class: "link-field" }, field, copyButton),
    h("a", { href: url, class: props.kind ? `${props.kind}-link` : "", target: "_blank", rel: "noopener" }, "open"));
}

function showTable(answer) {
  panel("created", `Table ${answer.table} is open`,
    answer.links.length > 0 && [
      h("p", { class: "warn-text" }, "Each link below is secret and for one person: it opens that seat, so send it privately. Whoever holds a link plays that seat."),
      answer.links.map((link) => linkRow(`${link.name} (seat ${link.seat})`, link.url, { seat: link.seat, kind: "join" }))],
    answer.watch && [h("p", {}, "No person sits at this table: watch the bots play, every secret shown."),
      linkRow("Watch", answer.watch, { kind: "watch" }), linkRow("Watch step by step (starts paused)", `${answer.watch}#paused`, { kind: "watch-paused" })],
    h("p", { class: "dim" }, "The replay opens once the game is over."), linkRow("Replay", answer.replay, { kind: "replay" }));
  $("#created").scrollIntoView({ behavior: "smooth", block: "start" });
}

// -- which page this is --------------------------------------------------------------------------

const [, kind, table] = location.pathname.split("/");
if (!kind) startLobby();
else {
  document.body.dataset.mode = kind;
  $("#mode").textContent = { table: "your seat", watch: "watching", replay: "replay" }[kind] || "";
  ({ table: startSeat, watch: startWatch, replay: startReplay })[kind]?.(table);
}
