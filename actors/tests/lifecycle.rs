//! An actor's own say in its life: a last step after everything queued at shutdown
//! (`Behaviour::stopping`), failing for good at once when no restart would help
//! (`CellCtx::fail`), and running degraded until it can do all of its work again
//! (`CellCtx::degraded`).

mod common;

use std::sync::Arc;
use std::time::Duration;

use actors::{
    ActorState, AskError, Behaviour, CellCtx, ChildSpec, Handled, HealthRegistry, Reply, Supervisor,
};
use common::wait_until;
use parking_lot::Mutex;

/// Records what it handled, and its stop, in a shared journal.
struct Journal {
    entries: Arc<Mutex<Vec<String>>>,
}

enum JournalMsg {
    Write(&'static str, Reply<()>),
    Broken(&'static str, Reply<()>),
    Short(Option<&'static str>, Reply<()>),
}

impl Behaviour for Journal {
    type Msg = JournalMsg;

    fn handle(&mut self, message: JournalMsg, ctx: &mut CellCtx<Self>) -> Handled {
        match message {
            JournalMsg::Write(text, reply) => {
                self.entries.lock().push(text.to_string());
                reply.send(());
            }
            JournalMsg::Broken(reason, reply) => {
                ctx.fail(reason);
                reply.send(());
            }
            JournalMsg::Short(reason, reply) => {
                ctx.degraded(reason.map(str::to_string));
                reply.send(());
            }
        }
        Handled::Done
    }

    fn stopping(&mut self) {
        self.entries.lock().push("stopped".to_string());
    }
}

fn journal(
    supervisor: &Supervisor,
    critical: bool,
) -> (actors::ChildRef<JournalMsg>, Arc<Mutex<Vec<String>>>) {
    let entries = Arc::new(Mutex::new(Vec::new()));
    let shared = entries.clone();
    let child = supervisor.spawn(
        ChildSpec::new("journal", move || {
            Ok(Journal {
                entries: shared.clone(),
            })
        })
        .critical(critical),
    );
    (child, entries)
}

#[actix_rt::test]
async fn the_stopping_step_runs_once_after_everything_queued_at_shutdown() {
    let registry = HealthRegistry::new();
    let supervisor = Supervisor::new(registry.clone());
    let (child, entries) = journal(&supervisor, true);
    let answers: Vec<_> = ["a", "b", "c"]
        .into_iter()
        .map(|text| child.ask(|reply| JournalMsg::Write(text, reply)))
        .collect();
    supervisor.begin_shutdown();
    for answer in answers {
        assert_eq!(answer.await, Ok(()));
    }
    let stopped = wait_until(Duration::from_secs(5), || {
        child.health().state() == ActorState::Stopped
    })
    .await;
    assert!(stopped, "{:?}", child.health().state());
    assert_eq!(*entries.lock(), ["a", "b", "c", "stopped"]);
}

#[actix_rt::test]
async fn an_actor_that_fails_is_failed_for_good_at_once_with_its_reason() {
    let registry = HealthRegistry::new();
    let supervisor = Supervisor::new(registry.clone());
    let (child, entries) = journal(&supervisor, true);
    assert_eq!(
        child
            .ask(|reply| JournalMsg::Broken("the file is damaged", reply))
            .await,
        Ok(())
    );
    let reason = actix_rt::time::timeout(Duration::from_secs(5), supervisor.critical_failure())
        .await
        .unwrap_or_default();
    assert!(reason.contains("the file is damaged"), "{reason}");
    let record = child.health().snapshot();
    assert_eq!(record.state, ActorState::Failed);
    assert_eq!(record.restarts, 0, "a failed actor is not restarted");
    assert_eq!(
        record.last_failure.map(|f| f.message).as_deref(),
        Some("the file is damaged")
    );
    assert!(!registry.snapshot().is_healthy());
    assert_eq!(
        child.ask(|reply| JournalMsg::Write("late", reply)).await,
        Err(AskError::Closed {
            actor: "journal".into()
        })
    );
    assert!(
        entries.lock().is_empty(),
        "no stopping step after a failure"
    );
}

#[actix_rt::test]
async fn a_degraded_actor_keeps_running_and_says_why_until_it_is_whole_again() {
    let registry = HealthRegistry::new();
    let supervisor = Supervisor::new(registry.clone());
    let (child, _) = journal(&supervisor, true);
    let _ = child
        .ask(|reply| JournalMsg::Short(Some("disk full"), reply))
        .await;
    let record = child.health().snapshot();
    assert_eq!(record.state, ActorState::Running);
    assert_eq!(record.degraded.as_deref(), Some("disk full"));
    assert_eq!(
        record.last_failure.map(|f| f.message).as_deref(),
        Some("disk full")
    );
    assert!(registry.snapshot().is_healthy());
    let _ = child.ask(|reply| JournalMsg::Short(None, reply)).await;
    let record = child.health().snapshot();
    assert_eq!(record.degraded, None);
    assert_eq!(record.state, ActorState::Running);
}
