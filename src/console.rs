//! `donna chat`: the runtime in this process with the terminal as its channel.
//!
//! Commands: `tasks`, `add <title>`, `nudge <number or id>`, `threads`, `use <thread id>`,
//! `history`, `help`, `quit`. Anything else is a reply in the current thread, handled exactly as
//! a message from any other channel (same intake, same turn).

use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

use crate::conversation::{threads, Channel};
use crate::nudges;
use crate::tasks::{repo, NewTask, Task};
use crate::turn::intake::Incoming;

const HELP: &str = "commands:
  tasks               list open tasks
  add <title>         add a task
  nudge <n | id>      have Donna nudge you about task n of the list (opens its thread)
  threads             list threads
  use <thread id>     switch to a thread
  history             show the current thread
  help                this text
  quit                leave
anything else is your reply in the current thread";

/// `logs`: the file the logs go to (named once in the greeting), None when they go to stderr.
pub fn chat(config: Option<&Path>, logs: Option<&Path>) -> ExitCode {
    let logs = logs.map(|path| format!(" Logs: {}.", path.display()));
    let config = config.map(Path::to_path_buf);
    let system = actix_rt::System::new();
    let outcome = system.block_on(async move {
        let app = crate::app::launch(config.as_deref()).map_err(|e| e.to_string())?;
        let (lines_tx, mut lines) = tokio::sync::mpsc::unbounded_channel::<String>();
        // Reading stdin blocks: keep it on a thread of its own.
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            for line in stdin.lock().lines() {
                let Ok(line) = line else { break };
                if lines_tx.send(line).is_err() {
                    break;
                }
            }
        });
        println!(
            "Donna is listening. Type 'help' for commands.{}",
            logs.unwrap_or_default()
        );
        let mut listed: Vec<Task> = Vec::new();
        let mut current: Option<String> = None;
        prompt(current.as_deref());
        while let Some(line) = lines.recv().await {
            let line = line.trim().to_string();
            let (command, rest) = line
                .split_once(' ')
                .map_or((line.as_str(), ""), |(c, r)| (c, r.trim()));
            match command {
                "" => {}
                "quit" | "exit" => break,
                "help" => println!("{HELP}"),
                "tasks" => match app.store.read(|conn| repo::list(conn, None)).await {
                    Ok(tasks) => {
                        listed = tasks.into_iter().filter(|t| t.status.is_open()).collect();
                        if listed.is_empty() {
                            println!("no open tasks; add one with: add <title>");
                        }
                        for (i, task) in listed.iter().enumerate() {
                            println!(
                                "{:>3}. {} [{}] ({})",
                                i + 1,
                                task.title,
                                task.status,
                                task.id
                            );
                        }
                    }
                    Err(error) => println!("error: {error}"),
                },
                "add" => {
                    let title = rest.to_string();
                    match crate::tasks::model::clean_title(&title) {
                        Err(reason) => println!("error: {reason}"),
                        Ok(title) => {
                            let now = app.clock.now();
                            let new = NewTask::titled(title);
                            match app
                                .store
                                .write(move |conn| {
                                    repo::insert(conn, &crate::ids::new_id("tsk"), &new, now)
                                })
                                .await
                            {
                                Ok(task) => println!("added '{}' ({})", task.title, task.id),
                                Err(error) => println!("error: {error}"),
                            }
                        }
                    }
                }
                "nudge" => {
                    let task_id = match rest.parse::<usize>() {
                        Ok(n) if n >= 1 && n <= listed.len() => listed[n - 1].id.clone(),
                        _ => rest.to_string(),
                    };
                    let now = app.clock.now();
                    let opened = app
                        .store
                        .write(move |conn| {
                            Ok(nudges::open(
                                conn,
                                &task_id,
                                None,
                                Channel::Local,
                                || crate::ids::new_id("thr"),
                                now,
                            ))
                        })
                        .await;
                    match opened {
                        Ok(Ok(opened)) => {
                            println!("donna: {}", opened.text);
                            current = Some(opened.thread_id);
                        }
                        Ok(Err(error)) => println!("error: {error} (try 'tasks' first)"),
                        Err(error) => println!("error: {error}"),
                    }
                }
                "threads" => match app.store.read(threads::list).await {
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
                },
                "use" => current = Some(rest.to_string()),
                "history" => match &current {
                    None => println!("no thread yet: nudge a task first"),
                    Some(thread_id) => {
                        let thread_id = thread_id.clone();
                        match app
                            .store
                            .read(move |conn| {
                                crate::conversation::memory::recent(conn, &thread_id, Some(20))
                            })
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
                },
                _ => match &current {
                    None => println!("no thread yet: 'tasks', then 'nudge 1' (or 'help')"),
                    Some(thread_id) => {
                        let result = app
                            .intake
                            .submit(Incoming {
                                channel: Channel::Local,
                                thread_id: thread_id.clone(),
                                user_id: "console".into(),
                                text: line.clone(),
                                message_id: None,
                            })
                            .await;
                        match result {
                            Ok(result) => match result.reply {
                                Some(reply) => println!("donna: {reply}"),
                                None => println!("(donna stays quiet)"),
                            },
                            Err(error) => println!("error: {error}"),
                        }
                    }
                },
            }
            prompt(current.as_deref());
        }
        app.shutdown(app.config.shutdown.grace.get()).await;
        Ok::<(), String>(())
    });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("donna: {message}");
            ExitCode::from(1)
        }
    }
}

fn prompt(thread: Option<&str>) {
    print!("{}> ", thread.unwrap_or(""));
    let _ = std::io::stdout().flush();
}
