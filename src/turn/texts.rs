//! Donna's fixed sentences: the answers that need no model (the nudge sentence is
//! `crate::nudges::nudge_text`). Kept in one place so her voice stays consistent and tests can
//! refer to it.

use crate::actions::execute::NOT_APPLIED;
use crate::actions::review::Contradiction;
use crate::actions::ActionResult;

/// For a message in a thread bound to no task.
pub const FREE_THREAD: &str =
    "I can't chat freely yet. Here I answer replies to my nudges about a task: \
say 'done', 'tomorrow', 'later', 'busy' or 'undo' in a nudge thread.";

/// For a reply in a nudge thread that no keyword matched and no model is there to read: the
/// words first, then what works.
pub fn not_understood(said: &crate::sentence::Sentence, title: &str) -> String {
    let answer = format!(
        "I didn't catch that. For '{title}' you can say 'done', 'tomorrow' (or another time like \
         'friday 3pm'), 'later', 'busy' or 'undo'."
    );
    format!("{} {answer}", unread(said))
        .trim_start()
        .to_string()
}

/// For a reschedule reply that says more than "move it" but names no time Donna can read
/// ("postpone a fortnight"), with no model to read it: ask, never guess "later".
pub fn time_unclear(title: &str) -> String {
    format!(
        "I couldn't tell when you mean, so '{title}' stays as it was. Say a time like 'friday \
         3pm', 'in 2 hours', 'in a week' or 'tomorrow morning', or just 'later'."
    )
}

pub fn plan_gone(expired: bool) -> String {
    if expired {
        "That plan expired, so I did nothing. Tell me again what you'd like to do.".to_string()
    } else {
        "That plan was cancelled, so I did nothing. Tell me again what you'd like to do."
            .to_string()
    }
}

/// For a yes or no sent before the plan now waiting was proposed.
pub fn plan_replaced(proposal: &str) -> String {
    format!(
        "Your answer was sent before my newest proposal, so I did nothing. This is what's \
         waiting for your answer now: {proposal}"
    )
}

pub const NOTHING_TO_CONFIRM: &str =
    "There's nothing waiting for a yes right now, so I did nothing. What would you like to do?";

/// A yes or no from someone other than the person a proposal was made for.
pub const NOT_YOUR_PROPOSAL: &str =
    "That proposal is waiting for the answer of the person who asked, so I did nothing.";

pub const PLAN_REJECTED: &str = "OK, I won't do that.";

pub const NOTHING_TO_UNDO: &str = "There's nothing here to undo.";

pub fn too_late_to_undo(summary: &str) -> String {
    format!(
        "It's too late to undo the last change ({}).",
        summary.trim_end_matches('.')
    )
}

pub fn proposal(steps: &[String], expiry_minutes: i64) -> String {
    let listed = if steps.len() == 1 {
        steps.first().cloned().unwrap_or_default()
    } else {
        steps
            .iter()
            .enumerate()
            .map(|(i, step)| format!("{}) {step}", i + 1))
            .collect::<Vec<_>>()
            .join("; ")
    };
    format!(
        "I'd {listed}. Reply 'yes' to go ahead or 'no' to cancel (this expires in {expiry_minutes} minutes)."
    )
}

/// When the model cannot be reached or answers garbage.
pub const LLM_APOLOGY: &str =
    "Sorry, I couldn't think that through just now. Could you say it again, maybe more simply?";

/// When the model is not there (nothing answers at its address, or its server does not have
/// it): asking again cannot help, so say what works without it (config/reply_intents.yaml).
pub const MODEL_UNREACHABLE: &str =
    "I can't reach my language model right now, so I only understand simple replies: 'done', \
'later', 'tomorrow' (or a time, like 'move it to friday 3pm'), 'busy' or 'snooze', and 'undo'. \
Try one of those.";

/// When the model proposed only actions that failed validation.
pub const CLARIFY: &str =
    "I'm not sure what you'd like me to do with that. Could you say it another way?";

/// When a confirmed plan could not be applied whole: nothing changed, and why.
pub fn plan_not_applied(results: &[ActionResult]) -> String {
    let reasons: Vec<&str> = results
        .iter()
        .filter(|result| result.message != NOT_APPLIED)
        .map(|result| result.message.trim())
        .collect();
    format!(
        "I couldn't do all of that, so I changed nothing: {}",
        reasons.join(" ")
    )
}

/// When the model's plan contradicts itself: ask what the person means instead of guessing.
pub fn contradictory_plan(contradiction: &Contradiction, title: &str) -> String {
    match contradiction {
        Contradiction::CancelAndMore(_) => format!(
            "I'm not sure what you'd like: should I cancel '{title}', or keep it and change it?"
        ),
        Contradiction::EndAndMove { .. } => {
            format!("I'm not sure what you'd like: is '{title}' finished, or should I move it?")
        }
        Contradiction::TwoWays(_) => {
            format!("I heard two different changes for '{title}'. Which one would you like?")
        }
    }
}

/// When the model answered with nothing to say and nothing to do.
pub const LLM_EMPTY: &str = "Noted.";

/// What works in free text without a model (docs/contract.md "Free text", step 7).
const FREE_TEXT_COMMANDS: &str = "'add <task>', 'remind me to <task> <time>' (like 'remind me to \
pay rent friday 9am'), 'list my tasks', 'what's overdue', 'what's due today' (or tomorrow, this \
week) and 'undo'";

/// Free text no rule took, with no model configured.
pub fn free_text_no_model() -> String {
    format!(
        "I didn't catch that. Without a language model I understand plain commands: \
         {FREE_TEXT_COMMANDS}."
    )
}

/// Free text no rule took, with a model that is not there or gave no usable answer.
pub fn free_text_model_down() -> String {
    format!(
        "I can't use my language model right now, so I only understand plain commands: \
         {FREE_TEXT_COMMANDS}."
    )
}

/// The model answered, but nothing it said could be used (garbage, twice): not "can't reach".
pub fn free_text_model_garbled() -> String {
    format!(
        "My language model gave me an answer I couldn't use, so I did nothing. Plain commands \
         always work: {FREE_TEXT_COMMANDS}."
    )
}

/// A message the model read as a task with nothing to add, and that asks for none: a closing,
/// a feeling, small talk. Not "what should I add?".
pub const NOT_A_TASK: &str = "I'm not sure what you'd like me to do. Tell me a task to add \
(for example 'add call the bank tomorrow'), or ask me what's on your list.";

/// Free text the model read as something not built yet (a question, chat, a change to a task).
pub fn free_text_not_yet(what: &str) -> String {
    format!(
        "I can't {what} yet. For now I can remember tasks and answer simple questions: \
         {FREE_TEXT_COMMANDS}."
    )
}

pub const GREETING: &str =
    "Hi! Tell me what to remember, like 'remind me to pay rent friday 9am', or ask 'what's due \
today?'.";

pub const THANKS: &str = "You're welcome.";

/// A goodbye ("cool, see you tomorrow", "ok bye").
pub const GOODBYE: &str = "Talk soon! I'll nudge you when something's due.";

/// Praise ("thanks, you're the best", "legend").
pub const PRAISE: &str = "Thank you! Happy to help.";

/// The answer to a message that only closes the conversation: a goodbye, praise, or thanks.
pub fn closing(said: &crate::sentence::Sentence) -> String {
    use crate::sentence::lexicon::closings;
    let words: Vec<String> = said.words().map(|word| word.replace('\'', "")).collect();
    let goodbye = words.iter().any(|word| closings::is_goodbye(word))
        || closings::GOODBYE_PHRASES
            .iter()
            .any(|phrase| crate::sentence::lexicon::holds(&words, phrase));
    let praise = words.iter().any(|word| closings::is_compliment(word));
    if goodbye {
        GOODBYE.to_string()
    } else if praise {
        PRAISE.to_string()
    } else {
        THANKS.to_string()
    }
}

/// The words Donna could not read, named briefly (at most eight words of the core), to open an
/// answer that says what works instead: `"blah blah":`.
pub fn unread(said: &crate::sentence::Sentence) -> String {
    let core = said.core();
    let shown: Vec<&str> = (core.start..core.end.min(core.start + 8))
        .map(|index| said.word_at(index))
        .filter_map(|range| said.text().get(range))
        .collect();
    let more = if core.end > core.start + 8 {
        " …"
    } else {
        ""
    };
    if shown.is_empty() {
        return String::new();
    }
    format!("\"{}{more}\":", shown.join(" "))
}

pub const ASK_WHAT: &str = "What should I add?";

/// A capture whose time could not be read: ask, never guess.
pub fn ask_time(title: &str, reason: &str) -> String {
    format!(
        "When should '{title}' be? I couldn't read the time ({reason}). Say it like 'friday 9am', \
         'tomorrow at 17:00' or 'in 2 hours'."
    )
}

pub const DRAFT_DROPPED: &str = "OK, I've dropped that.";

pub const NOTHING_TO_DROP: &str = "There's nothing waiting to be dropped.";

pub const DRAFT_GIVEN_UP: &str =
    "I still couldn't make it out, so I've left it. Tell me again whenever you like, e.g. 'add \
call the bank tomorrow'.";

/// A capture that looks like a task already open.
pub fn duplicate(title: &str, when: Option<String>) -> String {
    match when {
        Some(when) => format!("You already have '{title}', {when}. Add another?"),
        None => format!("You already have '{title}'. Add another?"),
    }
}

pub const ESCALATION_OVER_BUDGET: &str =
    "(This would need the bigger model, but today's budget for it is spent, so that is my own answer.)";
pub const ESCALATION_UNAFFORDABLE: &str =
    "Today's budget for the bigger model cannot cover that any more, so I did not ask it. Ask me again tomorrow, or let me try on my own.";
pub const ESCALATION_INTERRUPTED: &str =
    "The bigger model's answer was interrupted when I restarted. I won't ask it again for that; its cost stays counted in today's budget. Ask again if you still want it.";
pub const ESCALATION_OFF: &str = "The bigger model is not set up any more, so I did not ask it.";
/// "ask the bigger model" with none configured.
pub const ESCALATION_NOT_SET_UP: &str =
    "There is no bigger model set up, so I can't ask one (it needs escalation.base_url and escalation.model in the config). I'll answer as well as I can myself.";
/// "ask the bigger model" with nothing asked before it.
pub const ASK_BIGGER_WHAT: &str =
    "What should I ask the bigger model? Ask your question, or say 'ask the bigger model: <your question>'.";
/// Why the bigger model is offered when the person asked for it.
pub const ESCALATION_ASKED_FOR: &str = "you asked for it";
/// The person asked for the bigger model, but today's budget is spent.
pub const ESCALATION_BUDGET_SPENT: &str =
    "Today's budget for the bigger model is spent, so I can't ask it. Ask me again tomorrow, or let me try on my own.";

/// The offer to ask the bigger model, with its reason and cost.
pub fn escalation_offer(reason: &str, estimate_usd: f64) -> String {
    format!(
        "This needs a bigger model ({}). Asking it costs at most ${estimate_usd:.4}.",
        reason.trim().trim_end_matches('.')
    )
}

/// For a new task the model proposed whose title the person never said a word of.
pub const INVENTED_TASK: &str =
    "I didn't add anything: nothing in your message says what to add. Tell me the task in your \
own words (for example 'add call the bank tomorrow').";

/// "undo" from a member whose own actions there are none of, while another member's are.
pub const NOT_YOURS_TO_UNDO: &str =
    "There's nothing of yours to undo here: the last change was someone else's, and only they can \
undo it.";

/// A model prompt could not be built (Donna's own template failed): her fault, said so.
pub const PROMPT_FAILED: &str = "Something went wrong on my side while preparing that, so I did \
nothing. Plain commands like 'add ...' or 'list my tasks' still work.";
