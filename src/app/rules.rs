//! The reply rules: the FastPath's keyword intents (reply_intents.yaml) and the action registry
//! (reply_actions.yaml), from the files the config names or the shipped copies, checked
//! against each other before anything starts (with `llm.require_evidence`, every action must
//! declare its evidence).

use std::path::PathBuf;

use crate::actions::ActionRegistry;
use crate::chat_actions::ChatActions;
use crate::config::{Env, LlmProvider, LoadedConfig};
use crate::replies::intents::IntentsConfig;

use super::error::StartError;

/// The reply rules: keyword intents and the action registry, checked against each other.
#[derive(Debug, Clone)]
pub struct Rules {
    pub intents: IntentsConfig,
    pub actions: ActionRegistry,
    /// The chat's actions (chat_actions.yaml) with their safety levels.
    pub chat_actions: ChatActions,
}

impl Rules {
    /// Loads the files named in the config, or the shipped copies.
    pub fn load(loaded: &LoadedConfig) -> Result<Self, StartError> {
        let read = |path: &Option<PathBuf>,
                    shipped: &'static str,
                    key: &str|
         -> Result<(String, String), StartError> {
            match path {
                Some(path) => {
                    let full = loaded.resolve(path);
                    crate::config::read_text(&full)
                        .map(|text| (text, format!("{key} ({})", full.display())))
                        .map_err(|error| StartError::Rules {
                            file: key.to_string(),
                            reason: error.to_string(),
                        })
                }
                None => Ok((shipped.to_string(), format!("{key} (shipped)"))),
            }
        };
        let config = &loaded.config;
        let (intents_text, intents_name) = read(
            &config.intents_file,
            include_str!("../../config/reply_intents.yaml"),
            "intents_file",
        )?;
        let (actions_text, actions_name) = read(
            &config.actions_file,
            include_str!("../../config/reply_actions.yaml"),
            "actions_file",
        )?;
        let intents =
            IntentsConfig::from_yaml_str(&intents_text).map_err(|error| StartError::Rules {
                file: intents_name.clone(),
                reason: error.to_string(),
            })?;
        let actions =
            ActionRegistry::from_yaml(&actions_text).map_err(|error| StartError::Rules {
                file: actions_name.clone(),
                reason: error.to_string(),
            })?;
        if config.llm.require_evidence && config.llm.provider != LlmProvider::None {
            if let Some(name) = actions.without_evidence().next() {
                return Err(StartError::Rules {
                    file: actions_name,
                    reason: format!(
                        "actions.{name}.evidence: missing; list the words in a reply that can \
                         justify this action, or set llm.require_evidence: false"
                    ),
                });
            }
        }
        for intent in &intents.intents {
            if actions.get(&intent.def.action).is_none() {
                return Err(StartError::Rules {
                    file: intents_name,
                    reason: format!(
                        "intents.{}.action: unknown action {:?}; the actions file has: {}",
                        intent.name,
                        intent.def.action,
                        actions.names().collect::<Vec<_>>().join(", ")
                    ),
                });
            }
        }
        let (chat_text, chat_name) = read(
            &config.chat_actions_file,
            include_str!("../../config/chat_actions.yaml"),
            "chat_actions_file",
        )?;
        let chat_actions =
            ChatActions::from_yaml(&chat_text).map_err(|error| StartError::Rules {
                file: chat_name,
                reason: error.to_string(),
            })?;
        Ok(Self {
            intents,
            actions,
            chat_actions,
        })
    }
}

/// Checks everything `donna run` would check, without starting anything.
pub fn check(loaded: &LoadedConfig, env: &dyn Env) -> Result<(), StartError> {
    loaded.config.validate(env)?;
    let rules = Rules::load(loaded)?;
    super::model::ModelClients::build(&loaded.config, env, &rules.actions)?;
    Ok(())
}
