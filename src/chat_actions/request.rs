//! A chat action the model asked for, checked against its definition: the action exists, each
//! declared parameter has its type, enum and range (strings trimmed, never empty), required
//! ones are there; parameters the action does not declare are dropped (and logged by the
//! caller), as the reply actions do.
//!
//! Invariant: the result holds only the model's words, checked; nothing in it is trusted as a
//! task or automation id (those are resolved by Donna, `tasks::named`).

use serde_json::{Map, Value};

use super::registry::{ChatActions, ChatHandler, Safety};
use crate::actions::params::normalize;
use crate::actions::ActionRequest;

/// A checked request.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    pub name: String,
    pub handler: ChatHandler,
    pub safety: Safety,
    pub params: Map<String, Value>,
}

impl ChatRequest {
    pub fn text(&self, name: &str) -> Option<&str> {
        self.params.get(name).and_then(Value::as_str)
    }

    /// The words naming the task it is about, if it is about one.
    pub fn task_reference(&self) -> Option<&str> {
        self.text("task")
    }
}

/// Why a request was refused; said to the person when nothing else is left.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RequestError {
    #[error("there is no action {0:?}")]
    Unknown(String),
    #[error("{action}: {param} is missing")]
    Missing { action: String, param: String },
    #[error("{action}: {param} {reason}")]
    Invalid {
        action: String,
        param: String,
        reason: String,
    },
    #[error("{0}: nothing to change was given")]
    NothingToChange(String),
}

impl ChatActions {
    pub fn check_request(&self, request: &ActionRequest) -> Result<ChatRequest, RequestError> {
        let action = self
            .get(&request.name)
            .ok_or_else(|| RequestError::Unknown(request.name.clone()))?;
        let mut params = Map::new();
        for (name, def) in &action.params {
            match request.params.get(name) {
                None | Some(Value::Null) => {
                    if !def.optional {
                        return Err(RequestError::Missing {
                            action: action.name.clone(),
                            param: name.clone(),
                        });
                    }
                }
                Some(value) => {
                    let value = normalize(def, value).map_err(|reason| RequestError::Invalid {
                        action: action.name.clone(),
                        param: name.clone(),
                        reason: reason.to_string(),
                    })?;
                    params.insert(name.clone(), value);
                }
            }
        }
        if action.handler == ChatHandler::UpdateTask && params.len() < 2 {
            return Err(RequestError::NothingToChange(action.name.clone()));
        }
        Ok(ChatRequest {
            name: action.name.clone(),
            handler: action.handler,
            safety: action.safety,
            params,
        })
    }
}
