//! The console's commands: `tasks`, `add <task>`, `nudge <number or id>`,
//! `automations`, `threads`,
//! `use <thread id>`, `history`, `help`, `quit`; anything else is a message in the current
//! thread, handled exactly as a message from any other channel (same intake, same turn).
//! Until a nudge thread is chosen, the current thread is the console's own free thread
//! ([`CONSOLE_THREAD`], kept across runs): free lines are free text there ("remind me to call
//! mom tomorrow", "list my tasks"), and `add` is a capture in it (times, duplicates), so a
//! task added here is nudged here.
//!
//! Owns: the current thread and the sequences of the events the console published itself.
//! Numbers: task n is the n-th open task, oldest first, read when the number is used, so a new
//! task gets the next number and `add` can say it at once; numbers move only when a task
//! before it is closed, and `tasks` shows them as they are.
//! Invariants: a command that cannot work says why and what to type instead, and changes
//! nothing; every change is published on the event bus once committed, like the API's.

use std::collections::HashSet;
use std::sync::Arc;

use crate::app::App;
use crate::conversation::{memory, threads, Channel};
use crate::nudges::{NudgeFailure, NudgeRequest, Requested};
use crate::store::StoreError;
use crate::tasks::open::{self, Window};
use crate::tasks::Task;
use crate::turn::intake::Incoming;
use crate::turn::result::{TurnPath, TurnResult};

/// The console's own free thread.
pub const CONSOLE_THREAD: &str = crate::conversation::chat_ids::CONSOLE_CHAT;

const HELP: &str = "commands:
  tasks               list open tasks
  add <task>          add a task (with a time: add pay rent friday 9am)
  nudge <n | id>      have Donna nudge you about task n of the list (opens its thread)
  automations         list recurring reminders and their next run
  threads             list threads
  use <thread id>     switch to a thread (use console: back to the console's own)
  history             show the current thread
  help                this text
  quit                leave (or Ctrl-D)
anything else is a message to Donna in the current thread: 'remind me to call mom tomorrow',
'list my tasks', 'what's due today', or a reply to a nudge";

/// Whether the console goes on after a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Continue,
    Quit,
}

pub struct Console {
    app: Arc<App>,
    current: Option<String>,
    own: HashSet<u64>,
}

/// The open tasks as numbered: oldest first.
fn open_tasks(conn: &rusqlite::Connection) -> Result<Vec<Task>, StoreError> {
    let mut open: Vec<Task> = open::tasks(conn, open::Origins::Every, Window::Any, None)?;
    open.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
    Ok(open)
}

fn task_line(number: usize, task: &Task) -> String {
    format!(
        "{number:>3}. {} [{}] ({})",
        task.title, task.status, task.id
    )
}

/// "  1. Submit the timesheet: every Monday at 09:00, next Mon 30 Nov 09:00 (aut_...)"
fn automation_line(
    number: usize,
    automation: &crate::automations::Automation,
    now: chrono::DateTime<chrono::Utc>,
) -> String {
    let schedule = &automation.schedule;
    let next = match schedule.first_run_after(now) {
        Ok(Some(at)) => at
            .with_timezone(&schedule.timezone)
            .format("next %a %-d %b %H:%M")
            .to_string(),
        _ => "no next run".to_string(),
    };
    format!(
        "{number:>3}. {}: {}, {next} ({})",
        automation.title, schedule.words, automation.id
    )
}

impl Console {
    pub fn new(app: Arc<App>) -> Self {
        Self {
            app,
            current: None,
            own: HashSet::new(),
        }
    }

    /// The thread being typed in: a chosen one, else the console's own.
    pub fn current(&self) -> Option<&str> {
        Some(self.current.as_deref().unwrap_or(CONSOLE_THREAD))
    }

    /// The sequences of the events this console published (the feed does not repeat them).
    pub fn own(&self) -> &HashSet<u64> {
        &self.own
    }

    pub async fn handle(&mut self, line: &str) -> Step {
        let line = line.trim();
        let (command, rest) = line
            .split_once(' ')
            .map_or((line, ""), |(c, r)| (c, r.trim()));
        match command {
            "" => {}
            "quit" | "exit" => return Step::Quit,
            "help" => println!("{HELP}"),
            "tasks" => self.tasks().await,
            "add" => self.add(rest).await,
            "nudge" => self.nudge(rest).await,
            "automations" => self.automations().await,
            "threads" => self.threads().await,
            "use" => self.use_thread(rest).await,
            "history" => self.history().await,
            _ => self.reply(line).await,
        }
        Step::Continue
    }

    async fn tasks(&self) {
        match self.app.store.read(open_tasks).await {
            Ok(open) if open.is_empty() => println!("no open tasks; add one with: add <title>"),
            Ok(open) => {
                for (index, task) in open.iter().enumerate() {
                    println!("{}", task_line(index + 1, task));
                }
            }
            Err(error) => println!("error: {error}"),
        }
    }

    async fn automations(&self) {
        let now = self.app.clock.now();
        match self.app.store.read(crate::automations::repo::list).await {
            Ok(all) if all.is_empty() => println!(
                "no automations; say e.g. \"every monday at 9 remind me to submit the timesheet\""
            ),
            Ok(all) => {
                for (index, automation) in all.iter().enumerate() {
                    println!("{}", automation_line(index + 1, automation, now));
                }
            }
            Err(error) => println!("error: {error}"),
        }
    }

    async fn add(&mut self, words: &str) {
        if words.is_empty() {
            println!("add <task>: say what the task is, e.g. add Pay rent friday 9am");
            return;
        }
        // A capture in the console's own thread: the same turn as "add ..." typed there.
        let Some(thread_id) = self.console_thread().await else {
            return;
        };
        let result = self.submit(&thread_id, &format!("add {words}")).await;
        let Some(result) = result else { return };
        let created = result
            .results
            .iter()
            .find(|action| action.ok)
            .and_then(|action| action.task_id.clone());
        let Some(task_id) = created.filter(|_| result.path == TurnPath::TaskCreated) else {
            // A question (what? when?) or a likely duplicate: Donna's own words say so.
            if let Some(reply) = result.reply {
                println!("donna: {reply}");
            }
            return;
        };
        let open = self.app.store.read(open_tasks).await.unwrap_or_default();
        match open.iter().position(|t| t.id == task_id) {
            Some(index) => {
                let reply = result.reply.unwrap_or_default();
                println!(
                    "added {}\n(nudge {} to talk about it)",
                    task_line(index + 1, &open[index]).trim_start(),
                    index + 1
                );
                if reply.contains(';') || reply.contains(", due") || reply.contains(" (") {
                    // The time or a learned preference: worth saying.
                    println!("donna: {reply}");
                }
            }
            None => println!("donna: {}", result.reply.unwrap_or_default()),
        }
    }

    /// The console's own free thread, created the first time it is needed.
    async fn console_thread(&mut self) -> Option<String> {
        let now = self.app.clock.now();
        let ready = self
            .app
            .store
            .write(move |conn| {
                threads::ensure_free(conn, CONSOLE_THREAD, false, Channel::Local, now)
            })
            .await;
        match ready {
            Ok(()) => Some(CONSOLE_THREAD.to_string()),
            Err(error) => {
                println!("error: {error}");
                None
            }
        }
    }

    /// Sends `text` as the console's message in `thread_id`; None (said why) when refused.
    async fn submit(&self, thread_id: &str, text: &str) -> Option<TurnResult> {
        let result = self
            .app
            .intake
            .submit(Incoming::typed(Channel::Local, thread_id, "console", text))
            .await;
        match result {
            Ok(result) => Some(result),
            Err(error) => {
                println!("error: {error}");
                None
            }
        }
    }

    async fn nudge(&mut self, which: &str) {
        if which.is_empty() {
            println!("nudge <number or task id>; type tasks to see numbers");
            return;
        }
        let task_id = match which.parse::<usize>() {
            Ok(number) => match self.app.store.read(open_tasks).await {
                Ok(open) => match number.checked_sub(1).and_then(|i| open.get(i)) {
                    Some(task) => task.id.clone(),
                    None => {
                        println!("no task {number}; type tasks to see numbers");
                        return;
                    }
                },
                Err(error) => {
                    println!("error: {error}");
                    return;
                }
            },
            Err(_) => which.to_string(),
        };
        let request = NudgeRequest {
            task_id,
            context: None,
            channel: Some(Channel::Local),
        };
        match self.app.nudge_desk().open(request).await {
            Ok(Requested { opened, events }) => {
                self.own.extend(events);
                println!("donna: {}", opened.text);
                self.current = Some(opened.thread_id);
            }
            Err(NudgeFailure::NoTask(id)) => {
                println!("no task {id}; type tasks to see numbers")
            }
            Err(error) => println!("error: {error}"),
        }
    }

    async fn threads(&self) {
        match self.app.store.read(threads::list).await {
            Ok(all) if all.is_empty() => println!("no threads yet: nudge a task first"),
            Ok(all) => {
                for thread in all {
                    println!(
                        "{} task={} open={}",
                        thread.id,
                        thread.task_id.unwrap_or_else(|| "-".into()),
                        thread.open
                    );
                }
            }
            Err(error) => println!("error: {error}"),
        }
    }

    async fn use_thread(&mut self, thread_id: &str) {
        if thread_id.is_empty() {
            println!("use <thread id>; type threads to list them");
            return;
        }
        let lookup = thread_id.to_string();
        match self
            .app
            .store
            .read(move |conn| threads::get(conn, &lookup))
            .await
        {
            Ok(Some(thread)) => self.current = Some(thread.id),
            Ok(None) => println!("no thread {thread_id}; type threads to list them"),
            Err(error) => println!("error: {error}"),
        }
    }

    async fn history(&self) {
        let thread_id = self
            .current
            .clone()
            .unwrap_or_else(|| CONSOLE_THREAD.to_string());
        match self
            .app
            .store
            .read(move |conn| memory::recent(conn, &thread_id, Some(20)))
            .await
        {
            Ok(entries) => {
                for entry in entries {
                    println!("{}: {}", entry.role.as_str(), entry.content);
                }
            }
            Err(error) => println!("error: {error}"),
        }
    }

    async fn reply(&mut self, line: &str) {
        let thread_id = match self.current.clone() {
            Some(thread_id) => thread_id,
            None => match self.console_thread().await {
                Some(thread_id) => thread_id,
                None => return,
            },
        };
        if let Some(result) = self.submit(&thread_id, line).await {
            match result.reply {
                Some(reply) => println!("donna: {reply}"),
                None => println!("(donna stays quiet)"),
            }
        }
    }
}
