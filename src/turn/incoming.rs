//! A message as a channel hands it over to the intake: typed words, or a click (the intent its
//! button stands for), with what the channel knows it answers (a plan, a nudge, a task).
//!
//! Owns: [`Incoming`] and its constructors, so a channel says only what it knows (a new field
//! does not touch every channel).

use crate::actions::Intent;
use crate::conversation::Channel;

/// A message as a channel hands it over.
#[derive(Debug, Clone)]
pub struct Incoming {
    pub channel: Channel,
    pub thread_id: String,
    pub user_id: String,
    pub text: String,
    /// The channel's id for the message; generated when the channel has none.
    pub message_id: Option<String>,
    /// The plan the message answers, when the channel knows it (a Discord button click).
    pub answers_plan: Option<String>,
    /// The nudge the message answers, when the channel knows it (a click on a nudge's button).
    pub answers_nudge: Option<String>,
    /// The task the message is about, when the channel knows it (the web page's Done button).
    pub about_task: Option<String>,
    /// What the message's button stands for, when it is a click: the turn acts on it without
    /// reading `text` (the answer it stands for, which the conversation remembers).
    pub intent: Option<Intent>,
}

impl Incoming {
    /// Words a person sent in `thread_id` (or a command that stands for words, such as `/add`).
    pub fn typed(
        channel: Channel,
        thread_id: impl Into<String>,
        user_id: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        Self {
            channel,
            thread_id: thread_id.into(),
            user_id: user_id.into(),
            text: text.into(),
            message_id: None,
            answers_plan: None,
            answers_nudge: None,
            about_task: None,
            intent: None,
        }
    }

    /// A click on a button of `user_id`'s in `thread_id`: it enters the turn as `intent`, and
    /// the conversation remembers the answer the button stands for ([`Intent::words`]).
    pub fn clicked(
        channel: Channel,
        thread_id: impl Into<String>,
        user_id: impl Into<String>,
        intent: Intent,
    ) -> Self {
        Self {
            intent: Some(intent.clone()),
            ..Self::typed(channel, thread_id, user_id, intent.words())
        }
    }

    /// The channel's own id for the message: the same id again in the thread is the same
    /// message (its first result, nothing applied twice). None: one is generated.
    pub fn with_message_id(mut self, message_id: impl Into<Option<String>>) -> Self {
        self.message_id = message_id.into();
        self
    }

    /// The plan the message answers (a button under a proposal): it answers that plan only.
    pub fn answering_plan(mut self, plan_id: impl Into<String>) -> Self {
        self.answers_plan = Some(plan_id.into());
        self
    }

    /// The nudge the message answers (a button under a nudge): it acts on that nudge's task,
    /// and only while the nudge can still be answered.
    pub fn answering_nudge(mut self, nudge_id: impl Into<String>) -> Self {
        self.answers_nudge = Some(nudge_id.into());
        self
    }

    /// The task the message is about (a button beside a task on the web page): in a chat bound
    /// to no task it acts on that task, and only while the task is open.
    pub fn about(mut self, task_id: impl Into<String>) -> Self {
        self.about_task = Some(task_id.into());
        self
    }
}
