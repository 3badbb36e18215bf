//! One classification (a reply to a nudge): the one prefix (`system_prompt`, which says how to
//! answer a reply to a nudge, with the reply actions and their examples), then the reply's own
//! message (prompts/classify.hbs); ask the model, parse strictly, and ask once more when the
//! answer is invalid.
//!
//! The retry shows the model its own answer and says what was wrong with it, so the second
//! request differs from the first and the answer can too.
//!
//! Invariant: at most two model calls per classification; anything still invalid after the
//! second is an error (the turn apologises), never a guess.

use serde_json::Value;

use super::client::LlmClient;
use super::output::{self, Classification};
use super::prompts::{ClassifyContext, Prompts};
use super::schema::output_schema;
use super::system_prompt::Prefix;
use super::{ChatMessage, LlmError};
use crate::actions::ActionRegistry;

#[derive(Debug)]
pub struct Classifier {
    client: LlmClient,
    prompts: Prompts,
    schema: Value,
}

impl Classifier {
    pub fn new(
        client: LlmClient,
        registry: &ActionRegistry,
    ) -> Result<Self, super::prompts::PromptError> {
        Ok(Self {
            client,
            prompts: Prompts::new()?,
            schema: output_schema(registry),
        })
    }

    pub fn prompts(&self) -> &Prompts {
        &self.prompts
    }

    pub fn is_enabled(&self) -> bool {
        self.client.is_enabled()
    }

    /// The output schema of the call (titled `classify`).
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// The messages of the first request for `context`: the prefix, then the reply's own
    /// message.
    pub fn messages(
        &self,
        prefix: &Prefix,
        context: &ClassifyContext,
    ) -> Result<Vec<ChatMessage>, super::prompts::PromptError> {
        prefix.fit(context.history.as_slice(), |history| {
            self.prompts.classify(&ClassifyContext {
                history: history.to_vec(),
                ..context.clone()
            })
        })
    }

    pub async fn classify(
        &self,
        prefix: &Prefix,
        context: &ClassifyContext,
    ) -> Result<Classification, LlmError> {
        let mut messages = self.messages(prefix, context)?;
        let first = self.client.complete(&messages, Some(&self.schema)).await?;
        let reason = match output::parse(&first) {
            Ok(classification) => return Ok(classification),
            Err(reason) => reason,
        };
        tracing::info!(%reason, "model output invalid; asking once more");
        messages.extend(ChatMessage::ask_again(&first, &reason));
        let second = self.client.complete(&messages, Some(&self.schema)).await?;
        output::parse(&second).map_err(LlmError::InvalidOutput)
    }
}
