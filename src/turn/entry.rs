//! The turn's entry: what the message is, and the decision that follows. A click enters as the
//! intent its button stands for (`Inbound::intent`) and goes straight to `decide_click`: no
//! words are read, whatever the keyword vocabulary says about the words it stands for. Words are
//! read by the FastPath (after a grouped nudge's number picked its task) and go to `decide`.
//!
//! Owns: the order of reading and deciding, and the moment the turn decided (its `now`, in the
//! journal). Sends: `Analyze` to the FastPath (words only).

use chrono::{DateTime, Utc};

use crate::llm::journal;
use crate::subsystems::fast_path::FastPathMsg;

use super::context::TurnContext;
use super::decide::{decide, keep_the_live_plan, Decided};
use super::decide_click::decide_click;
use super::error::TurnError;
use super::nudge_group;
use super::pipeline::Pipeline;
use super::Inbound;

impl Pipeline {
    pub(super) async fn enter(
        &self,
        inbound: &Inbound,
        context: TurnContext,
    ) -> Result<Decided, TurnError> {
        let Some(intent) = &inbound.intent else {
            return self.read_words(inbound, context).await;
        };
        let now = self.decided_now();
        let (plan_step, next) =
            decide_click(&context, intent, inbound.answers_plan.as_deref(), now);
        Ok(Decided {
            plan_step: keep_the_live_plan(plan_step, &next, inbound),
            context,
            answer: inbound.clone(),
            analysis: None,
            next,
            now,
        })
    }

    async fn read_words(
        &self,
        inbound: &Inbound,
        context: TurnContext,
    ) -> Result<Decided, TurnError> {
        // A reply to a nudge that listed several tasks picks one by its number ("2 done").
        let (context, text) = nudge_group::pick(context, &inbound.text);
        let answer = Inbound {
            text: text.clone(),
            ..inbound.clone()
        };
        let analysis = self
            .fast_path
            .ask(|reply| FastPathMsg::Analyze { text, reply })
            .await?;
        let now = self.decided_now();
        let (plan_step, next) = decide(&context, &analysis, now);
        Ok(Decided {
            plan_step: keep_the_live_plan(plan_step, &next, inbound),
            context,
            answer,
            analysis: Some(analysis),
            next,
            now,
        })
    }

    /// Now, as the moment the turn decided (the journal keeps it for `donna replay`).
    fn decided_now(&self) -> DateTime<Utc> {
        let now = self.clock.now();
        if let Some(journal) = journal::current() {
            journal.decided(now);
        }
        now
    }
}
