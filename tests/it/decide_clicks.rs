//! A click's decision (`turn::decide_click`) beside the words its button stands for, in the
//! situations of `decide_table`: a button goes to the room its words would reach, with the same
//! step for a live plan; a Yes / No answers exactly the proposal it names (only the requester's,
//! only while live, only one proposed before the click) and says so when that proposal is over,
//! never falling through to an action as a typed "yes" may.

use crate::decide_table::{context, fast_path, now, Situation};

use donna::actions::Intent;
use donna::replies::analysis::analyze;
use donna::sentence::Sentence;
use donna::turn::decide::{decide, Next, PlanStep};
use donna::turn::decide_click::decide_click;
use Situation::*;

/// The proposal every situation with a plan has (`decide_table::plan`).
const PLAN: &str = "pln_1";

/// Where a message goes, named: the room, and the action or the plan.
fn room(next: &Next) -> String {
    match next {
        Next::Intent(matched) | Next::AnswerNudge(matched) => format!("act {}", matched.action),
        Next::Clicked(intent) => format!(
            "act {}",
            match intent {
                Intent::Done => "mark_done",
                Intent::Snooze => "snooze",
                Intent::Tomorrow | Intent::Reschedule { .. } => "reschedule",
                Intent::Rename { .. } => "rename_task",
                Intent::Cancel => "cancel_task",
                other => panic!("not a task intent: {other:?}"),
            }
        ),
        Next::ConfirmPlan(plan) => format!("confirm {}", plan.id),
        Next::RejectPlan(plan) => format!("reject {}", plan.id),
        Next::PlanReplaced(plan) => format!("told {} waits", plan.id),
        Next::NotYours(plan) => format!("not yours {}", plan.id),
        Next::PlanGone { expired: true } => "plan expired".into(),
        Next::PlanGone { expired: false } => "plan cancelled".into(),
        Next::NothingToConfirm => "nothing to confirm".into(),
        Next::Undo => "undo".into(),
        Next::FreeText => "free text".into(),
        Next::NextLayer => "next layer".into(),
        Next::Closing => "closing".into(),
    }
}

fn by_words(situation: Situation, words: &str) -> (String, bool) {
    let said = Sentence::read(words);
    let (step, next) = decide(
        &context(situation),
        &analyze(fast_path(), &said, None),
        now(),
    );
    (room(&next), matches!(step, PlanStep::Cancel(_)))
}

fn by_click(situation: Situation, intent: &Intent, names: Option<&str>) -> (String, bool) {
    let (step, next) = decide_click(&context(situation), intent, names, now());
    (room(&next), matches!(step, PlanStep::Cancel(_)))
}

#[test]
fn a_task_button_goes_where_its_words_go_with_the_same_step_for_a_live_plan() {
    let buttons = [
        ("done", Intent::Done),
        ("tomorrow", Intent::Tomorrow),
        ("snooze 1h", Intent::Snooze),
    ];
    for situation in [
        AfterNudge,
        AfterReply,
        LivePlan,
        ExpiredPlan,
        CancelledPlan,
        PlanProposedAfterSending,
        FreeAfterNudge,
    ] {
        for (words, intent) in &buttons {
            let typed = by_words(situation, words);
            assert!(
                typed.0.starts_with("act "),
                "{situation:?} {words:?}: {typed:?}"
            );
            assert_eq!(
                by_click(situation, intent, None),
                typed,
                "{situation:?}: {intent:?} as {words:?}"
            );
        }
    }
    // Someone else's proposal in the chat stays where it is.
    assert_eq!(
        by_click(FreeLivePlanOfSomeoneElse, &Intent::Done, None),
        ("act mark_done".into(), false)
    );
}

#[test]
fn yes_and_no_answer_the_live_proposal_as_the_words_do() {
    for situation in [
        LivePlan,
        FreeLivePlan,
        FreeLivePlanOfSomeoneElse,
        PlanProposedAfterSending,
    ] {
        for (words, intent) in [("yes", Intent::Yes), ("no", Intent::No)] {
            assert_eq!(
                by_click(situation, &intent, Some(PLAN)),
                by_words(situation, words),
                "{situation:?}: {intent:?}"
            );
        }
    }
    assert_eq!(
        by_click(LivePlan, &Intent::Yes, Some(PLAN)),
        ("confirm pln_1".into(), false)
    );
    assert_eq!(
        by_click(FreeLivePlanOfSomeoneElse, &Intent::Yes, Some(PLAN)),
        ("not yours pln_1".into(), false)
    );
    for situation in [ExpiredPlan, CancelledPlan, FreeExpiredPlan] {
        assert_eq!(
            by_click(situation, &Intent::Yes, Some(PLAN)),
            by_words(situation, "yes"),
            "{situation:?}"
        );
    }
}

#[test]
fn a_yes_or_no_button_answers_only_its_own_proposal_and_never_acts_on_a_task() {
    let table = [
        // (situation, button, the proposal it names, where it goes)
        (LivePlan, Intent::Yes, "pln_old", "told pln_1 waits"),
        (LivePlan, Intent::No, "pln_old", "told pln_1 waits"),
        (ExpiredPlan, Intent::No, PLAN, "plan expired"),
        (CancelledPlan, Intent::No, PLAN, "plan cancelled"),
        (Free, Intent::Yes, PLAN, "plan cancelled"),
        // A typed "yes" right after a nudge is "done"; a Yes button names a proposal, and
        // this one is gone.
        (AfterNudge, Intent::Yes, PLAN, "plan cancelled"),
        (FreeAfterNudge, Intent::Yes, PLAN, "plan cancelled"),
    ];
    for (situation, intent, names, expected) in table {
        assert_eq!(
            by_click(situation, &intent, Some(names)),
            (expected.to_string(), false),
            "{situation:?}: {intent:?} on {names}"
        );
    }
}

#[test]
fn the_undo_button_is_undo() {
    for situation in [AfterNudge, LivePlan, Free, FreeLivePlan] {
        assert_eq!(
            by_click(situation, &Intent::Undo, None),
            by_words(situation, "undo"),
            "{situation:?}"
        );
    }
}
