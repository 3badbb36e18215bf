//! What the console prints of the event stream while the person types: nudges Donna sends on
//! her own (the scheduler, the API), her messages in threads other than the current one, and
//! that she is thinking (waiting for the model) about the line just typed.
//!
//! Owns: the choice of what to show and its wording. Takes: each event of the bus.
//! Invariants: nothing the console itself caused is shown again (its own nudges are skipped by
//! sequence; the reply to a typed line is printed by the turn, and messages of the current
//! thread are never repeated); a nudge's own `message` event is not shown a second time.

use std::collections::HashSet;

use crate::events::{Event, Payload};

#[derive(Debug, Default)]
pub struct Feed {
    /// The last nudge shown (thread, text): its `message` twin is skipped.
    last_nudge: Option<(String, String)>,
    /// The sequence of the last nudge event seen.
    last_nudge_seq: u64,
}

impl Feed {
    /// The line to print for `event`, if any. `current` is the thread being typed in; `own` the
    /// sequences of the events the console published itself.
    pub fn show(
        &mut self,
        event: &Event,
        current: Option<&str>,
        own: &HashSet<u64>,
    ) -> Option<String> {
        if own.contains(&event.seq) {
            return None;
        }
        match &event.payload {
            Payload::Nudge {
                thread_id, text, ..
            } => {
                // A nudge listing several tasks comes as one event per task, one right after
                // the other: shown once.
                let shown = Some((thread_id.clone(), text.clone()));
                let next_of_same = self.last_nudge_seq.checked_add(1) == Some(event.seq);
                self.last_nudge_seq = event.seq;
                if next_of_same && self.last_nudge == shown {
                    return None;
                }
                self.last_nudge = shown;
                Some(if current == Some(thread_id.as_str()) {
                    format!("[nudge] {text}")
                } else {
                    format!("[nudge] {text} (thread {thread_id}; type: use {thread_id})")
                })
            }
            Payload::Message { thread_id, text } => {
                let twin = self
                    .last_nudge
                    .as_ref()
                    .is_some_and(|(thread, nudge)| thread == thread_id && nudge == text);
                if twin || current == Some(thread_id.as_str()) {
                    return None;
                }
                Some(format!("[{thread_id}] donna: {text}"))
            }
            Payload::Task { .. } => None,
            // The line just typed went to the model: say so while the person waits.
            Payload::Thinking { thread_id } if current == Some(thread_id.as_str()) => {
                Some("(Donna is thinking…)".to_string())
            }
            Payload::Thinking { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(seq: u64, payload: Payload) -> Event {
        Event {
            seq,
            id: format!("r-{seq}"),
            payload,
        }
    }

    #[test]
    fn a_nudge_is_shown_once_and_the_current_threads_messages_not_at_all() {
        let mut feed = Feed::default();
        let own = HashSet::from([9]);
        let nudge = Payload::Nudge {
            task_id: "tsk".into(),
            thread_id: "thr_a".into(),
            text: "'Pay rent' is overdue. Done?".into(),
            channel: "local".into(),
        };
        let twin = Payload::Message {
            thread_id: "thr_a".into(),
            text: "'Pay rent' is overdue. Done?".into(),
        };
        assert_eq!(
            feed.show(&event(1, nudge.clone()), Some("thr_b"), &own)
                .as_deref(),
            Some("[nudge] 'Pay rent' is overdue. Done? (thread thr_a; type: use thr_a)")
        );
        assert_eq!(feed.show(&event(2, twin), Some("thr_b"), &own), None);
        assert_eq!(
            feed.show(&event(9, nudge), None, &own),
            None,
            "the console's own"
        );
        let reply = Payload::Message {
            thread_id: "thr_b".into(),
            text: "Marked done.".into(),
        };
        assert_eq!(
            feed.show(&event(3, reply.clone()), Some("thr_b"), &own),
            None
        );
        assert_eq!(
            feed.show(&event(4, reply), Some("thr_a"), &own).as_deref(),
            Some("[thr_b] donna: Marked done.")
        );
    }

    #[test]
    fn thinking_is_shown_for_the_line_just_typed_only() {
        let mut feed = Feed::default();
        let thinking = Payload::Thinking {
            thread_id: "thr_a".into(),
        };
        assert_eq!(
            feed.show(&event(1, thinking.clone()), Some("thr_a"), &HashSet::new())
                .as_deref(),
            Some("(Donna is thinking…)")
        );
        assert_eq!(
            feed.show(&event(2, thinking), Some("thr_b"), &HashSet::new()),
            None,
            "another chat's turn"
        );
    }
}
