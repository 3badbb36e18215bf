// Donna's web page: the page's own chat, open tasks (with their times and estimates), proposals
// waiting for a yes or no, the person's day (time zone and quiet hours, set with PUT
// /api/people/{user_id}) and recurring reminders, kept live from the event stream (GET
// /api/events).
//
// Everything goes through the HTTP API as any client's would: typed messages through
// POST /api/messages in the page's chat; a task's Done, Snooze 1h, Tomorrow, Move, Rename, Cancel
// and Undo through POST /api/web/act, a proposal's Yes / No through POST /api/web/answers: each
// the intent it stands for, in the same turn as typed words (so "undo" in the chat takes a
// change back too). Cancel is proposed first and the page asks once, in the task's row. Text
// from the server is only ever set as text (textContent), never as HTML.
'use strict';

const state = {
  thread: null,   // the page's chat
  user: null,     // who the page speaks as
  zone: null,     // the person's time zone (IANA name)
  quiet: null,    // the person's quiet hours ("22:00-08:00": theirs, or the configured ones)
  events: null,   // the EventSource
  lastNudge: null,
  refreshTimer: null,
  thinkingTimer: null,
  livePlans: new Set(), // the ids of the live proposals
  changing: new Set(),  // the tasks whose Change panel is open, by id
  asking: new Map(),    // task id -> the cancel proposal the page asks about in its row
  rows: new Map(),      // task id -> its row, kept while its Change panel is open
  taskPages: 1,   // pages of open tasks shown
};

const byId = (id) => document.getElementById(id);

class Unauthorized extends Error {}
class Refused extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// One API call: the answer's JSON and the next page's URL (a list's `Link: <URL>; rel="next"`).
// Writes always send JSON (the server requires it of the page's writes).
async function call(method, path, body) {
  const init = { method, headers: {}, credentials: 'same-origin' };
  if (method !== 'GET') {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body === undefined ? {} : body);
  }
  const response = await fetch(path, init);
  if (response.status === 401) {
    showTokenForm();
    throw new Unauthorized('the API token is needed');
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (_) {
    data = text;
  }
  if (!response.ok) {
    const reason = data && data.error ? data.error : response.statusText;
    throw new Refused(response.status, reason);
  }
  const link = /<([^>]*)>\s*;\s*rel="next"/.exec(response.headers.get('Link') || '');
  return { data, next: link ? link[1] : null };
}

async function api(method, path, body) {
  return (await call(method, path, body)).data;
}

function setStatus(text) {
  byId('status').textContent = text;
}

// ---- the token form -------------------------------------------------------------------------

function showTokenForm() {
  if (state.events) {
    state.events.close();
    state.events = null;
  }
  byId('app').hidden = true;
  byId('token-form').hidden = false;
  setStatus('');
  byId('token').focus();
}

async function sendToken(event) {
  event.preventDefault();
  const field = byId('token');
  const error = byId('token-error');
  error.textContent = '';
  const response = await fetch('/web/session', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify({ token: field.value }),
  });
  if (response.status === 204) {
    field.value = '';
    byId('token-form').hidden = true;
    start();
  } else if (response.status === 401) {
    error.textContent = 'That token is not the right one.';
    field.select();
  } else {
    error.textContent = `Donna could not check the token (${response.status}).`;
  }
}

// ---- times ------------------------------------------------------------------------------------

function formatTime(iso, zone) {
  const options = {
    weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit',
    hour12: false,
  };
  try {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: zone }).format(new Date(iso));
  } catch (_) {
    return new Intl.DateTimeFormat('en-GB', options).format(new Date(iso));
  }
}

function timeElement(prefix, iso, zone) {
  const span = document.createElement('span');
  span.className = 'note';
  const time = document.createElement('time');
  time.dateTime = iso;
  time.textContent = formatTime(iso, zone);
  span.append(`${prefix} `, time);
  return span;
}

// ---- the conversation -------------------------------------------------------------------------

const WHO = { you: 'You', donna: 'Donna', nudge: 'Nudge', error: 'Not sent' };

function addMessage(kind, text, where) {
  const item = document.createElement('li');
  item.className = `msg ${kind}`;
  const who = document.createElement('span');
  who.className = 'who';
  who.textContent = where ? `${WHO[kind]} (${where})` : WHO[kind];
  const body = document.createElement('p');
  body.textContent = text;
  item.append(who, body);
  const list = byId('messages');
  list.append(item);
  list.scrollTop = list.scrollHeight;
}

// "Donna is thinking…" while a turn of this chat waits for the model (a `thinking` event), until
// her answer (a `message` event) or the POST's end; a minute and a half at most, in case the
// answer went missing.
function showThinking(shown) {
  clearTimeout(state.thinkingTimer);
  byId('thinking').hidden = !shown;
  if (shown) state.thinkingTimer = setTimeout(() => showThinking(false), 90000);
}

async function loadHistory() {
  const history = await api('GET', `/api/threads/${encodeURIComponent(state.thread)}/messages?limit=50`);
  byId('messages').replaceChildren();
  for (const message of history) {
    addMessage(message.role === 'user' ? 'you' : 'donna', message.text);
  }
}

async function sendMessage(event) {
  event.preventDefault();
  const field = byId('message');
  const text = field.value.trim();
  if (!text) return;
  field.value = '';
  addMessage('you', text);
  showLastChange(null);
  try {
    // Donna's reply arrives on the event stream, like every other message of the chat.
    await api('POST', '/api/messages', { thread_id: state.thread, user_id: state.user, text });
  } catch (error) {
    if (!(error instanceof Unauthorized)) addMessage('error', `${text}: ${error.message}`);
  }
  showThinking(false);
}

// Shows a button's answer when it was given in another chat (the stream shows only this one's).
function showElsewhere(result) {
  if (result && result.reply && result.thread_id !== state.thread) {
    addMessage('donna', result.reply, `in chat ${result.thread_id}`);
  }
}

async function press(button, said, method, path, body) {
  button.disabled = true;
  addMessage('you', said);
  showLastChange(null);
  try {
    const result = await api(method, path, body);
    showElsewhere(result);
    showLastChange(result);
  } catch (error) {
    if (!(error instanceof Unauthorized)) addMessage('error', `${said}: ${error.message}`);
    button.disabled = false;
  }
  scheduleRefresh();
}

// ---- the lists --------------------------------------------------------------------------------

function item(whatNodes, buttons) {
  const li = document.createElement('li');
  const what = document.createElement('div');
  what.className = 'what';
  what.append(...whatNodes);
  li.append(what);
  if (buttons.length) {
    const group = document.createElement('div');
    group.className = 'buttons';
    group.append(...buttons);
    li.append(group);
  }
  return li;
}

function paragraph(text) {
  const p = document.createElement('p');
  p.textContent = text;
  return p;
}

// A button whose accessible name says what it acts on: "Done: Pay rent".
function button(label, about, onClick, quiet) {
  const b = document.createElement('button');
  b.type = 'button';
  if (quiet) b.className = 'quiet';
  b.textContent = label;
  b.setAttribute('aria-label', `${label}: ${about}`);
  b.addEventListener('click', () => onClick(b));
  return b;
}

function fill(listId, emptyId, items) {
  byId(listId).replaceChildren(...items);
  byId(emptyId).hidden = items.length > 0;
}

function taskTime(task) {
  if (task.scheduled_start) return timeElement('at', task.scheduled_start, state.zone);
  if (task.deadline) return timeElement('due', task.deadline, state.zone);
  return null;
}

// ---- changing a task where it is shown ---------------------------------------------------------

// The page's last change and its Undo (the intent `undo`: the same as "undo" in the chat).
function showLastChange(result) {
  // Undo takes back the last change in the page's own chat only.
  const ran = !!result && result.thread_id === state.thread && !result.pending_plan_id
    && result.results.some((r) => r.ok);
  byId('last-change-text').textContent = result && result.reply ? result.reply : '';
  const undo = byId('undo');
  undo.hidden = !ran;
  if (ran) undo.setAttribute('aria-label', `Undo: ${result.reply}`);
}

async function undoLastChange() {
  const undo = byId('undo');
  undo.disabled = true;
  addMessage('you', 'Undo');
  try {
    const result = await api('POST', '/api/web/act', { intent: 'undo' });
    showLastChange(null);
    byId('last-change-text').textContent = result.reply || '';
  } catch (error) {
    if (!(error instanceof Unauthorized)) addMessage('error', `Undo: ${error.message}`);
  }
  undo.disabled = false;
  scheduleRefresh();
}

// One change to a task: POST /api/web/act, said in the chat as `said`.
async function act(control, said, body) {
  control.disabled = true;
  addMessage('you', said);
  showLastChange(null);
  let result = null;
  try {
    result = await api('POST', '/api/web/act', body);
    showElsewhere(result);
    showLastChange(result);
  } catch (error) {
    if (!(error instanceof Unauthorized)) addMessage('error', `${said}: ${error.message}`);
  }
  control.disabled = false;
  scheduleRefresh();
  return result;
}

// The wall time of `iso` in `zone`, as a datetime-local field takes it ("2026-12-01T15:00").
function localInput(iso, zone) {
  const parts = {};
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit',
    minute: '2-digit', hourCycle: 'h23',
  });
  for (const part of format.formatToParts(new Date(iso))) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

let fieldCount = 0;

// A labelled field with its button, as a form (Enter submits it).
function fieldForm(labelText, input, buttonLabel, about, onSubmit) {
  const form = document.createElement('form');
  const id = `field-${++fieldCount}`;
  const label = document.createElement('label');
  label.htmlFor = id;
  label.textContent = labelText;
  input.id = id;
  input.required = true;
  const row = document.createElement('div');
  row.className = 'row';
  const submit = document.createElement('button');
  submit.type = 'submit';
  submit.textContent = buttonLabel;
  submit.setAttribute('aria-label', `${buttonLabel}: ${about}`);
  row.append(input, submit);
  form.append(label, row);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onSubmit(submit, input.value);
  });
  return form;
}

// Move to a chosen time, rename, cancel: shown under the task by its Change button.
function changePanel(task, toggle) {
  const panel = document.createElement('div');
  panel.className = 'change';
  panel.id = `change-${task.id}`;
  const when = document.createElement('input');
  when.type = 'datetime-local';
  const current = task.scheduled_start || task.deadline;
  if (current) when.value = localInput(current, state.zone);
  // A change that ran closes the panel, so the row shows the task as it is now.
  const closeIfRan = (result) => { if (result) closePanel(task.id, toggle); };
  const move = fieldForm(`New time for ${task.title}`, when, 'Move', task.title, async (b, value) =>
    closeIfRan(await act(b, `Move: ${task.title} to ${value.replace('T', ' ')}`,
      { task_id: task.id, intent: 'reschedule', when: value })));
  const title = document.createElement('input');
  title.type = 'text';
  title.maxLength = 200;
  title.value = task.title;
  const rename = fieldForm(`New title for ${task.title}`, title, 'Rename', task.title,
    async (b, value) => closeIfRan(await act(b, `Rename: ${task.title} to ${value}`,
      { task_id: task.id, intent: 'rename', title: value })));
  const cancel = button('Cancel task', task.title, async (b) => {
    const result = await act(b, `Cancel: ${task.title}`, { task_id: task.id, intent: 'cancel' });
    if (result && result.pending_plan_id) {
      state.asking.set(task.id, result.pending_plan_id);
      closePanel(task.id, toggle);
      scheduleRefresh();
    }
  }, true);
  panel.append(move, rename, cancel);
  return panel;
}

function closePanel(taskId, toggle) {
  state.changing.delete(taskId);
  state.rows.delete(taskId);
  if (toggle) toggle.setAttribute('aria-expanded', 'false');
}

// "Cancel 'X'?" in the task's row, answering the cancel proposal (the page asks once).
function confirmCancel(task, planId) {
  const box = document.createElement('div');
  box.className = 'confirm';
  box.append(paragraph(`Cancel '${task.title}'? It will not be done.`));
  const answer = (word, said) => (b) => {
    state.asking.delete(task.id);
    press(b, said, 'POST', '/api/web/answers', { plan_id: planId, answer: word });
  };
  const group = document.createElement('div');
  group.className = 'buttons';
  group.append(
    button('Yes, cancel', task.title, answer('yes', `Yes, cancel: ${task.title}`)),
    button('No, keep', task.title, answer('no', `No, keep: ${task.title}`), true),
  );
  box.append(group);
  return box;
}

// "1 hour", "45 minutes", "1 hour 15 minutes", "2 days": a task's estimate in words.
function sayMinutes(minutes) {
  const plural = (n, unit) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (minutes >= 2 * 24 * 60 && minutes % (24 * 60) === 0) return plural(minutes / (24 * 60), 'day');
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (!hours) return plural(rest, 'minute');
  return rest ? `${plural(hours, 'hour')} ${plural(rest, 'minute')}` : plural(hours, 'hour');
}

function estimateElement(task) {
  if (!Number.isInteger(task.estimated_duration_minutes)) return null;
  const span = document.createElement('span');
  span.className = 'note estimate';
  span.textContent = `takes about ${sayMinutes(task.estimated_duration_minutes)}`;
  return span;
}

function taskRow(task) {
  const nodes = [paragraph(task.title)];
  const time = taskTime(task);
  if (time) nodes.push(time);
  const estimate = estimateElement(task);
  if (estimate) nodes.push(estimate);
  if (task.overdue) {
    const mark = document.createElement('strong');
    mark.className = 'overdue-mark';
    mark.textContent = 'Overdue';
    nodes.push(mark);
  }
  const done = button('Done', task.title, (b) =>
    act(b, `Done: ${task.title}`, { task_id: task.id, intent: 'done' }));
  const snooze = button('Snooze 1h', task.title, (b) =>
    act(b, `Snooze 1h: ${task.title}`, { task_id: task.id, intent: 'snooze' }), true);
  const tomorrow = button('Tomorrow', task.title, (b) =>
    act(b, `Tomorrow: ${task.title}`, { task_id: task.id, intent: 'tomorrow' }), true);
  const toggle = button('Change', task.title, () => {
    const row = toggle.closest('li');
    const open = row.querySelector('.change');
    if (open) {
      open.remove();
      closePanel(task.id, toggle);
      return;
    }
    state.changing.add(task.id);
    state.rows.set(task.id, row);
    row.append(changePanel(task, toggle));
    toggle.setAttribute('aria-expanded', 'true');
    row.querySelector('.change input').focus();
  }, true);
  toggle.setAttribute('aria-expanded', 'false');
  toggle.setAttribute('aria-controls', `change-${task.id}`);
  const li = item(nodes, [done, snooze, tomorrow, toggle]);
  li.dataset.task = task.id;
  if (task.overdue) li.classList.add('overdue');
  const asking = state.asking.get(task.id);
  if (asking && state.livePlans.has(asking)) li.append(confirmCancel(task, asking));
  return li;
}

// The open tasks come a page at a time (newest first): the page shows as many pages as the
// person asked for with "Show more tasks", reloaded whole on every refresh, sorted by time.
const TASK_PAGE = 100;

async function loadOpenTasks() {
  let open = [];
  let next = `/api/tasks?status=open&limit=${TASK_PAGE}`;
  for (let page = 0; page < state.taskPages && next; page += 1) {
    const answer = await call('GET', next);
    open = open.concat(answer.data);
    next = answer.next;
  }
  return { open, more: !!next };
}

function showTasks({ open, more }) {
  byId('more-tasks').hidden = !more;
  const when = (t) => t.scheduled_start || t.deadline || '';
  open.sort((a, b) => (when(a) && when(b) ? Date.parse(when(a)) - Date.parse(when(b))
    : when(a) ? -1 : when(b) ? 1 : 0));
  byId('zone').textContent = `Times in ${state.zone}.`;
  // A row whose Change panel is open is kept as it is (what the person typed, and the focus).
  const list = byId('task-list');
  const active = document.activeElement;
  const label = list.contains(active) ? active.getAttribute('aria-label') : null;
  const ids = new Set(open.map((t) => t.id));
  for (const id of [...state.changing]) if (!ids.has(id)) closePanel(id);
  fill('task-list', 'task-empty', open.map((task) => state.rows.get(task.id) || taskRow(task)));
  keepFocus(active, label);
}

// After the list is drawn again, the keyboard stays where it was: on the same element, on the
// same button of the redrawn row, or (its task gone, or renamed) on Undo.
function keepFocus(active, label) {
  if (!active || document.activeElement === active) return;
  if (document.contains(active)) {
    active.focus();
    return;
  }
  if (label === null) return;
  const again = [...byId('task-list').querySelectorAll('button')]
    .find((b) => b.getAttribute('aria-label') === label);
  if (again) again.focus();
  else if (!byId('undo').hidden) byId('undo').focus();
}

function showProposals(proposals) {
  state.livePlans = new Set(proposals.map((p) => p.id));
  for (const [task, plan] of state.asking) if (!state.livePlans.has(plan)) state.asking.delete(task);
  fill('proposal-list', 'proposal-empty', proposals.map((proposal) => {
    const nodes = [paragraph(proposal.text)];
    if (proposal.thread_id !== state.thread) nodes.push(paragraph(`In chat ${proposal.thread_id}.`));
    const mine = proposal.requester_id === null || proposal.requester_id === state.user;
    if (!mine) {
      const note = paragraph(`Made for ${proposal.requester_id}: only they can answer it.`);
      note.className = 'note';
      nodes.push(note);
      return item(nodes, []);
    }
    const answer = (word) => (b) => press(b, word, 'POST', '/api/web/answers',
      { plan_id: proposal.id, answer: word });
    return item(nodes, [
      button('Yes', proposal.text, answer('yes')),
      button('No', proposal.text, answer('no'), true),
    ]);
  }));
}

function showAutomations(automations) {
  fill('automation-list', 'automation-empty', automations.map((automation) => {
    const nodes = [paragraph(automation.title), paragraph(automation.schedule)];
    if (automation.next_run) nodes.push(timeElement('next', automation.next_run, automation.timezone));
    const stop = button('Stop', automation.title, async (b) => {
      b.disabled = true;
      try {
        await api('DELETE', `/api/automations/${encodeURIComponent(automation.id)}`);
        setStatus(`Stopped "${automation.title}".`);
      } catch (error) {
        if (!(error instanceof Unauthorized)) setStatus(`Could not stop it: ${error.message}`);
        b.disabled = false;
      }
      scheduleRefresh();
    }, true);
    return item(nodes, [stop]);
  }));
}

async function refresh() {
  try {
    const [tasks, proposals, automations] = await Promise.all([loadOpenTasks(),
      ...['/api/proposals', '/api/automations'].map((path) => api('GET', path))]);
    // Drawn together, so nothing moves under the pointer between two lists' answers; proposals
    // first: a task's row asks about its cancel proposal only while it is live.
    showProposals(proposals);
    showTasks(tasks);
    showAutomations(automations);
  } catch (error) {
    if (!(error instanceof Unauthorized)) setStatus(`Could not load: ${error.message}`);
  }
}

// Several events in a row (a turn's reply and its task changes) make one refresh.
function scheduleRefresh() {
  clearTimeout(state.refreshTimer);
  state.refreshTimer = setTimeout(refresh, 100);
}

// ---- the event stream -------------------------------------------------------------------------

function connect() {
  // EventSource reconnects by itself after a dropped connection and sends Last-Event-ID, so the
  // server replays what was missed (or says "reset", and the page reloads what it shows).
  const source = new EventSource('/api/events');
  state.events = source;
  source.addEventListener('open', () => setStatus('Live.'));
  source.addEventListener('nudge', (event) => {
    const nudge = JSON.parse(event.data);
    state.lastNudge = nudge;
    const where = nudge.channel === 'discord' ? 'on Discord' : 'in another chat';
    addMessage('nudge', nudge.text, nudge.thread_id === state.thread ? null : where);
    scheduleRefresh();
  });
  source.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    const last = state.lastNudge;
    state.lastNudge = null;
    // A nudge is followed by the same words as Donna's message in its chat: shown once.
    const repeat = last && last.thread_id === message.thread_id && last.text === message.text;
    if (message.thread_id === state.thread && !repeat) addMessage('donna', message.text);
    if (message.thread_id === state.thread) showThinking(false);
    scheduleRefresh();
  });
  source.addEventListener('thinking', (event) => {
    if (JSON.parse(event.data).thread_id === state.thread) showThinking(true);
  });
  source.addEventListener('task', scheduleRefresh);
  source.addEventListener('reset', () => {
    loadHistory().catch(() => {});
    scheduleRefresh();
  });
  source.addEventListener('error', () => {
    if (source.readyState === EventSource.CLOSED) {
      // Refused (Donna stopping, too many streams): start again in a while, reloading
      // everything, since a new stream cannot resume the old one.
      setStatus('Disconnected; trying again shortly.');
      state.events = null;
      setTimeout(start, 5000);
    } else {
      setStatus('Reconnecting…');
    }
  });
}

// ---- the person's own day ---------------------------------------------------------------------

// Shows the person's zone and offers every IANA name the browser knows as a suggestion.
function showZone() {
  byId('zone-input').value = state.zone;
  byId('zone').textContent = `Times in ${state.zone}.`;
  const names = byId('zone-names');
  if (!names.children.length && Intl.supportedValuesOf) {
    names.replaceChildren(...Intl.supportedValuesOf('timeZone').map((name) => {
      const option = document.createElement('option');
      option.value = name;
      return option;
    }));
  }
}

async function setZone(event) {
  event.preventDefault();
  const field = byId('zone-input');
  const error = byId('zone-error');
  error.textContent = '';
  try {
    const person = await api('PUT', `/api/people/${encodeURIComponent(state.user)}`,
      { timezone: field.value.trim() });
    state.zone = person.timezone;
    showZone();
    setStatus(`Your time zone is now ${state.zone}.`);
    scheduleRefresh();
  } catch (failure) {
    if (!(failure instanceof Unauthorized)) error.textContent = failure.message;
  }
}

// Shows the person's quiet hours (theirs, or the configured ones when they set none).
function showQuiet(person) {
  state.quiet = person.quiet_hours;
  byId('quiet-input').value = state.quiet;
  byId('quiet').textContent = `Quiet hours ${state.quiet}, in ${person.timezone}.`;
}

// PUT /api/people/{user_id} with `quiet` ("23:00-07:00"; null: the configured ones again).
async function putQuiet(quiet) {
  const error = byId('quiet-error');
  error.textContent = '';
  try {
    const person = await api('PUT', `/api/people/${encodeURIComponent(state.user)}`,
      { quiet_hours: quiet });
    showQuiet(person);
    setStatus(quiet === null ? `Your quiet hours are the default again: ${state.quiet}.`
      : `Your quiet hours are now ${state.quiet}.`);
  } catch (failure) {
    if (!(failure instanceof Unauthorized)) error.textContent = `Quiet hours not changed: ${failure.message.replace(/^quiet_hours: /, '')}`;
  }
}

async function setQuiet(event) {
  event.preventDefault();
  await putQuiet(byId('quiet-input').value.trim());
}

// ---- start ------------------------------------------------------------------------------------

async function start() {
  let chat;
  try {
    chat = await api('POST', '/api/web/chat', {});
  } catch (error) {
    if (!(error instanceof Unauthorized)) {
      setStatus(`Donna is not answering: ${error.message}`);
      setTimeout(start, 5000);
    }
    return;
  }
  state.thread = chat.thread_id;
  state.user = chat.user_id;
  state.zone = chat.timezone;
  try {
    // The person's own zone and quiet hours, where Donna keeps them (else the configured ones).
    const person = await api('GET', `/api/people/${encodeURIComponent(state.user)}`);
    if (person && person.timezone) state.zone = person.timezone;
    if (person && person.quiet_hours) showQuiet(person);
  } catch (_) {
    // Not read: the configured zone; the quiet hours stay unshown until they are set.
  }
  showZone();
  byId('token-form').hidden = true;
  byId('app').hidden = false;
  try {
    await loadHistory();
  } catch (error) {
    if (error instanceof Unauthorized) return;
  }
  if (!state.events) connect();
  await refresh();
  document.body.dataset.ready = 'yes';
}

document.addEventListener('DOMContentLoaded', () => {
  byId('token-form').addEventListener('submit', sendToken);
  byId('composer').addEventListener('submit', sendMessage);
  byId('zone-form').addEventListener('submit', setZone);
  byId('quiet-form').addEventListener('submit', setQuiet);
  byId('quiet-default').addEventListener('click', () => putQuiet(null));
  byId('undo').addEventListener('click', undoLastChange);
  byId('more-tasks').addEventListener('click', () => {
    state.taskPages += 1;
    scheduleRefresh();
  });
  // Proposals lapse without an event: look again now and then.
  setInterval(() => { if (state.events) scheduleRefresh(); }, 60000);
  start();
});
