// Donna's web page: the page's own chat, open tasks, proposals waiting for a yes or no, and
// recurring reminders, kept live from the event stream (GET /api/events).
//
// Everything goes through the HTTP API as any client's would: typed messages through
// POST /api/messages in the page's chat; Done and Yes / No through /api/web/* (the same turn as
// typing "done", "yes" or "no", so "undo" in the chat takes a Done back). Text from the server
// is only ever set as text (textContent), never as HTML.
'use strict';

const state = {
  thread: null,   // the page's chat
  user: null,     // who the page speaks as
  zone: null,     // the person's time zone (IANA name)
  events: null,   // the EventSource
  lastNudge: null,
  refreshTimer: null,
  thinkingTimer: null,
};

const byId = (id) => document.getElementById(id);

class Unauthorized extends Error {}
class Refused extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// One API call. Writes always send JSON (the server requires it of the page's writes).
async function api(method, path, body) {
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
  return data;
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
  try {
    showElsewhere(await api(method, path, body));
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

async function loadTasks() {
  const tasks = await api('GET', '/api/tasks');
  const open = tasks.filter((t) => t.status !== 'done' && t.status !== 'cancelled');
  const when = (t) => t.scheduled_start || t.deadline || '';
  open.sort((a, b) => (when(a) && when(b) ? Date.parse(when(a)) - Date.parse(when(b))
    : when(a) ? -1 : when(b) ? 1 : 0));
  byId('zone').textContent = `Times in ${state.zone}.`;
  fill('task-list', 'task-empty', open.map((task) => {
    const nodes = [paragraph(task.title)];
    const time = taskTime(task);
    if (time) nodes.push(time);
    const done = button('Done', task.title, (b) =>
      press(b, `Done: ${task.title}`, 'POST', '/api/web/done', { task_id: task.id }));
    return item(nodes, [done]);
  }));
}

async function loadProposals() {
  const proposals = await api('GET', '/api/proposals');
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

async function loadAutomations() {
  const automations = await api('GET', '/api/automations');
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
    await Promise.all([loadTasks(), loadProposals(), loadAutomations()]);
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
    // The person's own zone, where Donna keeps one.
    const person = await api('GET', `/api/people/${encodeURIComponent(state.user)}`);
    if (person && person.timezone) state.zone = person.timezone;
  } catch (_) {
    // No zone of their own: the configured one.
  }
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
  // Proposals lapse without an event: look again now and then.
  setInterval(() => { if (state.events) scheduleRefresh(); }, 60000);
  start();
});
