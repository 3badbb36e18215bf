//! `donna chat`: the runtime in this process with the terminal as its channel.
//!
//! Owns: the console's loop: lines from stdin (read on a thread of their own), Ctrl-C, and the
//! event bus, whichever comes first. Commands are in `commands`; what the console prints of
//! the event stream (nudges the scheduler sends, Donna's messages in other threads) is in
//! `feed`.
//! Invariants: Ctrl-D (end of input) and Ctrl-C end the same way: a newline (so the shell's
//! prompt starts on its own line), a clean app shutdown, exit 0. Nothing is printed twice: a
//! reply to the line just typed comes from the turn, not the feed.

mod commands;
mod feed;

use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

use crate::events::Next;

use commands::{Console, Step};
use feed::Feed;

/// `logs`: the file the logs go to (named once in the greeting), None when they go to stderr.
pub fn chat(config: Option<&Path>, logs: Option<&Path>) -> ExitCode {
    let logs = logs.map(|path| format!(" Logs: {}.", path.display()));
    let config = config.map(Path::to_path_buf);
    let system = actix_rt::System::new();
    let outcome = system.block_on(async move {
        let app = crate::app::launch(config.as_deref()).map_err(|e| e.to_string())?;
        // Taken before the greeting: from then on Ctrl-C is ours, never the default kill.
        let mut interrupt = Interrupt::new();
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
        let mut events = app.events.subscribe(None);
        let mut events_open = true;
        let mut console = Console::new(app.clone());
        let mut feed = Feed::default();
        prompt(console.current());
        loop {
            tokio::select! {
                // Events first: a reply's own event is already queued when its turn answers,
                // so it is seen (and skipped) before the next line changes the thread.
                biased;
                _ = interrupt.recv() => {
                    println!();
                    break;
                }
                next = events.next(), if events_open => match next {
                    Next::Event(event) => {
                        if let Some(text) = feed.show(&event, console.current(), console.own()) {
                            // The prompt is waiting on its line: start a new one, then reprint it.
                            println!();
                            println!("{text}");
                            prompt(console.current());
                        }
                    }
                    Next::Reset(_) => {}
                    Next::Closed => events_open = false,
                },
                line = lines.recv() => match line {
                    None => {
                        // Ctrl-D: end the prompt's line.
                        println!();
                        break;
                    }
                    Some(line) => {
                        if console.handle(&line).await == Step::Quit {
                            break;
                        }
                        prompt(console.current());
                    }
                },
            }
        }
        app.shutdown(app.config.shutdown.grace.get()).await;
        Ok::<(), String>(())
    });
    let _ = std::io::stdout().flush();
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

/// Ctrl-C (SIGINT), registered when created.
struct Interrupt {
    #[cfg(unix)]
    signal: Option<tokio::signal::unix::Signal>,
}

impl Interrupt {
    fn new() -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let signal = signal(SignalKind::interrupt())
                .map_err(|error| tracing::warn!(%error, "cannot take Ctrl-C"))
                .ok();
            Self { signal }
        }
        #[cfg(not(unix))]
        {
            Self {}
        }
    }

    async fn recv(&mut self) {
        #[cfg(unix)]
        {
            match &mut self.signal {
                Some(signal) => {
                    signal.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
