//! Binding: turning a request (a keyword intent, or an action the model proposed) into a
//! validated action that can run, against the registry's definitions.
//!
//! Invariants:
//! - A bound action has every required parameter, each of the declared type, within its enum
//!   and range; defaults are filled in explicitly; unknown parameters are dropped.
//! - `from_context` parameters are always taken from the thread's context, whatever the request
//!   said (a model cannot aim an action at another task).
//! - A time parameter (`when` of a reschedule, `due_by` of a new task) is read once, here, into
//!   a [`TimeReading`] carried with the action: the plan's wording, the check for an unusable
//!   time and the handler all use that one reading, so the person confirms exactly the time
//!   that will be used.
//! - Failures are typed ([`BindError`]); their text is what the person (or, later, the model)
//!   is told.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::handler_kind::HandlerKind;
use super::params::{normalize, ParamError};
use super::registry::{ActionRegistry, ActionRequest};
use super::reply_time;
use crate::replies::matcher::IntentMatch;
use crate::tasks::when::{find_when, WhenContext, WhenError};

/// What the thread supplies to binding: `from_context` parameters, and what times are read
/// against.
#[derive(Debug, Clone)]
pub struct BindContext {
    pub task_id: Option<String>,
    pub thread_id: String,
    /// Now, the timezone, the thread's task's current start and what "later" means.
    pub when: WhenContext,
}

impl BindContext {
    fn value(&self, name: &str) -> Option<Value> {
        match name {
            "task_id" => self.task_id.clone().map(Value::String),
            "thread_id" => Some(Value::String(self.thread_id.clone())),
            _ => None,
        }
    }
}

/// A time parameter, read once when the action was bound.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "reading", content = "value")]
pub enum TimeReading {
    /// The words name this instant.
    At(DateTime<Utc>),
    /// The words name no time at all ("push it").
    NotNamed,
    /// The words name a time that cannot be used; the reader's reason, for the person.
    Unreadable(String),
    /// The words say something about the time that the reader could not settle ("move it to
    /// tomorrow and today", "postpone it a week or two"): the model may read it; without one
    /// the person is asked, with the words named. The reason, for the person.
    Unclear(String),
}

impl TimeReading {
    pub fn read(words: &str, context: &WhenContext) -> Self {
        match find_when(words, context) {
            Ok(Some(at)) => TimeReading::At(at),
            Ok(None) => TimeReading::NotNamed,
            // Two times in one reply, or words of a time the reader could not read whole: the
            // person (or the model) can say which time was meant.
            Err(error @ (WhenError::Conflicting | WhenError::Unread(_))) => {
                TimeReading::Unclear(error.to_string())
            }
            Err(error) => TimeReading::Unreadable(error.to_string()),
        }
    }
}

/// Parameters only Donna's own code sets on a new task (where it came from, which learned
/// preferences filled it, the chat it was made in): bookkeeping, not part of what the person is
/// asked about, so a shown action leaves them out. The registry drops them from model output.
pub const DONNAS_OWN_PARAMS: [&str; 3] = ["source", "applied_preferences", "origin_thread_id"];

/// A validated action, ready to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoundAction {
    pub name: String,
    pub handler: HandlerKind,
    pub params: Map<String, Value>,
    /// Time parameters as read at bind time, by parameter name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub times: BTreeMap<String, TimeReading>,
}

impl BoundAction {
    /// The reading of time parameter `name`: the one made at bind time, or (for an action
    /// stored before readings were kept) a reading made now against `context`. None when the
    /// parameter is absent.
    pub fn time(&self, name: &str, context: impl FnOnce() -> WhenContext) -> Option<TimeReading> {
        if let Some(reading) = self.times.get(name) {
            return Some(reading.clone());
        }
        let words = self.params.get(name).and_then(Value::as_str)?;
        Some(TimeReading::read(words, &context()))
    }

    /// Why one of this action's times cannot be used, if one cannot.
    pub fn unusable_time(&self) -> Option<&str> {
        self.times.values().find_map(|reading| match reading {
            TimeReading::Unreadable(reason) | TimeReading::Unclear(reason) => Some(reason.as_str()),
            _ => None,
        })
    }

    /// Whether that is because the words could not be settled (the model may read them),
    /// rather than because they name an impossible time ("feb 30": the reader's reason is the
    /// answer).
    pub fn time_is_unclear(&self) -> bool {
        self.times
            .values()
            .any(|reading| matches!(reading, TimeReading::Unclear(_)))
    }
}

/// Why a request could not be bound. The text is told to the person as it is.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BindError {
    #[error("unknown action {0:?}")]
    UnknownAction(String),
    #[error("{action}: this thread has no {param}")]
    NoContext { action: String, param: String },
    #[error("{action}: missing parameter {param}")]
    MissingParam { action: String, param: String },
    #[error("{action}: parameter {param}: {reason}")]
    InvalidParam {
        action: String,
        param: String,
        reason: ParamError,
    },
    /// The request's own words cannot be used ("snooze 3 weeks": longer than the action
    /// allows); a whole sentence for the person.
    #[error("{0}")]
    Unusable(String),
}

/// A keyword intent, bound.
#[derive(Debug, Clone, PartialEq)]
pub struct BoundIntent {
    pub action: BoundAction,
    /// The intent is marked `confirm: true`, or the action is `plan_only`: propose, don't run.
    pub needs_plan: bool,
}

/// Binds a keyword intent: the intent's fixed parameters, and the reply's own words as the
/// action's `when` when it takes one and the intent did not fix it (so "push it to friday"
/// reschedules to Friday), or as a snooze's length ("snooze 20 min"). A reschedule reply that
/// names no time but says more than "move it" ("postpone till the audit") is
/// [`TimeReading::Unclear`], never "later" (`reply_time`).
pub fn bind_intent(
    registry: &ActionRegistry,
    intent: &IntentMatch,
    text: &str,
    context: &BindContext,
) -> Result<BoundIntent, BindError> {
    let mut params: Map<String, Value> = intent
        .params
        .iter()
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    let definition = registry.definition(&intent.action);
    let takes_when = definition.is_some_and(|(def, _)| def.params.contains_key("when"));
    let when_from_reply = takes_when && !params.contains_key("when");
    if when_from_reply {
        params.insert("when".into(), Value::String(text.to_string()));
    }
    if let Some((def, HandlerKind::Snooze)) = definition {
        let fixed = ["duration_minutes", "duration_hours"]
            .iter()
            .any(|name| params.contains_key(*name));
        if !fixed {
            reply_time::fill_snooze_length(def, text, &context.when, &mut params)
                .map_err(BindError::Unusable)?;
        }
    }
    let request = ActionRequest {
        name: intent.action.clone(),
        params,
    };
    // A hedged keyword (sarcasm, someone else's report) is proposed, never run at once.
    let needs_plan = intent.confirm || intent.hedged || registry.is_plan_only(&intent.action);
    let mut action = registry.bind(&request, context)?;
    if when_from_reply
        && action.times.get("when") == Some(&TimeReading::NotNamed)
        && reply_time::says_more_than_moving(text, &intent.keyword)
    {
        action.times.insert(
            "when".into(),
            TimeReading::Unclear(reply_time::UNCLEAR_TIME.into()),
        );
    }
    Ok(BoundIntent { action, needs_plan })
}

impl ActionRegistry {
    /// Validates one request against its definition, binds context parameters and reads its
    /// time parameter.
    pub fn bind(
        &self,
        request: &ActionRequest,
        context: &BindContext,
    ) -> Result<BoundAction, BindError> {
        let (def, handler) = self
            .definition(&request.name)
            .ok_or_else(|| BindError::UnknownAction(request.name.clone()))?;
        let mut params = Map::new();
        for (name, param) in &def.params {
            if param.from_context {
                let value = context.value(name).ok_or_else(|| BindError::NoContext {
                    action: request.name.clone(),
                    param: name.clone(),
                })?;
                params.insert(name.clone(), value);
                continue;
            }
            match request.params.get(name) {
                Some(Value::Null) | None => {
                    if let Some(default) = &param.default {
                        params.insert(name.clone(), default.clone());
                    } else if !param.optional {
                        return Err(BindError::MissingParam {
                            action: request.name.clone(),
                            param: name.clone(),
                        });
                    }
                }
                Some(value) => {
                    let value =
                        normalize(param, value).map_err(|reason| BindError::InvalidParam {
                            action: request.name.clone(),
                            param: name.clone(),
                            reason,
                        })?;
                    params.insert(name.clone(), value);
                }
            }
        }
        let times = read_times(handler, &params, &context.when);
        Ok(BoundAction {
            name: request.name.clone(),
            handler,
            params,
            times,
        })
    }
}

/// Reads the handler's time parameter, if the action has it. A new task's deadline is read
/// from now; a reschedule also from the task's current start ("by a day").
fn read_times(
    handler: HandlerKind,
    params: &Map<String, Value>,
    context: &WhenContext,
) -> BTreeMap<String, TimeReading> {
    let Some(name) = handler.time_param() else {
        return BTreeMap::new();
    };
    let Some(words) = params.get(name).and_then(Value::as_str) else {
        return BTreeMap::new();
    };
    let context = if handler.reads_time_from_task_start() {
        context.clone()
    } else {
        WhenContext {
            current_start: None,
            ..context.clone()
        }
    };
    BTreeMap::from([(name.to_string(), TimeReading::read(words, &context))])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::actions::ActionRegistry;

    fn registry() -> ActionRegistry {
        match ActionRegistry::shipped() {
            Ok(registry) => registry,
            Err(error) => panic!("shipped registry invalid: {error}"),
        }
    }

    fn request(name: &str, params: Value) -> ActionRequest {
        ActionRequest {
            name: name.into(),
            params: params.as_object().cloned().unwrap_or_default(),
        }
    }

    fn when() -> WhenContext {
        WhenContext {
            now: DateTime::parse_from_rfc3339("2026-11-23T10:00:00Z")
                .map(|at| at.with_timezone(&Utc))
                .unwrap_or_default(),
            timezone: chrono_tz::UTC,
            current_start: None,
            later: std::time::Duration::from_secs(3 * 3600),
        }
    }

    fn context() -> BindContext {
        BindContext {
            task_id: Some("tsk_thread".into()),
            thread_id: "thr_1".into(),
            when: when(),
        }
    }

    #[test]
    fn context_parameters_always_come_from_the_thread() {
        let bound = registry().bind(
            &request("mark_done", json!({"task_id": "tsk_other"})),
            &context(),
        );
        assert_eq!(
            bound.map(|b| b.params["task_id"].clone()),
            Ok(json!("tsk_thread"))
        );
    }

    #[test]
    fn defaults_are_filled_explicitly() {
        let bound = registry().bind(&request("snooze", json!({})), &context());
        assert_eq!(
            bound.map(|b| b.params["duration_hours"].clone()),
            Ok(json!(2))
        );
        let bound = registry().bind(
            &request("create_task", json!({"title": "Buy milk"})),
            &context(),
        );
        let params = bound.map(|b| b.params).unwrap_or_default();
        assert_eq!(
            (params["domain"].clone(), params["priority"].clone()),
            (json!("personal"), json!(2))
        );
    }

    #[test]
    fn types_enums_ranges_and_presence_are_checked() {
        let r = registry();
        let c = context();
        assert!(r.bind(&request("create_task", json!({})), &c).is_err());
        assert!(r
            .bind(&request("create_task", json!({"title": 5})), &c)
            .is_err());
        assert!(r
            .bind(
                &request("create_task", json!({"title": "x", "domain": "space"})),
                &c
            )
            .is_err());
        assert!(r
            .bind(
                &request("create_task", json!({"title": "x", "priority": "high"})),
                &c
            )
            .is_err());
        assert!(r
            .bind(
                &request("create_task", json!({"title": "x", "priority": 9})),
                &c
            )
            .is_err());
        assert!(r
            .bind(&request("snooze", json!({"duration_hours": 1.5})), &c)
            .is_err());
        assert!(r
            .bind(&request("rename_task", json!({"new_title": "   "})), &c)
            .is_err());
        assert!(r.bind(&request("launch_rockets", json!({})), &c).is_err());
        assert!(r
            .bind(
                &request("rename_task", json!({"new_title": "Pay rent"})),
                &c
            )
            .is_ok());
    }

    #[test]
    fn a_task_action_without_context_cannot_bind() {
        let free = BindContext {
            task_id: None,
            thread_id: "thr_free".into(),
            when: when(),
        };
        assert!(registry()
            .bind(&request("mark_done", json!({})), &free)
            .is_err());
    }
    #[test]
    fn a_time_is_read_once_when_bound() {
        let r = registry();
        let c = context();
        let bound = r
            .bind(&request("reschedule", json!({"when": "tomorrow 9am"})), &c)
            .unwrap_or_else(|e| panic!("{e}"));
        let expected = DateTime::parse_from_rfc3339("2026-11-24T09:00:00Z")
            .map(|at| at.with_timezone(&Utc))
            .unwrap_or_default();
        assert_eq!(bound.times.get("when"), Some(&TimeReading::At(expected)));
        assert_eq!(bound.unusable_time(), None);
        let bad = r
            .bind(&request("reschedule", json!({"when": "feb 30"})), &c)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            matches!(bad.unusable_time(), Some(reason) if reason.contains("30 February")),
            "{bad:?}"
        );
        let unnamed = r
            .bind(&request("reschedule", json!({"when": "push it"})), &c)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(unnamed.times.get("when"), Some(&TimeReading::NotNamed));
        let plain = r
            .bind(&request("mark_done", json!({})), &c)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(plain.times.is_empty());
    }
}
