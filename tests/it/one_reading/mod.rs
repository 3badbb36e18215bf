//! One reading of a message (issue: a wrapper never changes what Donna understands, and only the
//! person's own request acts), through the real bot: a message is analysed once per turn
//! (`analyses`); groups of messages that say one thing in different wrappers get one outcome
//! (`groups`, `groups_model`); and only the person's own plain request or report acts, the
//! keyword layer and consent alike (`consent_kinds`).

mod analyses;
mod consent_kinds;
mod groups;
mod outcome;
