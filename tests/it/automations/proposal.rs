//! An automation proposed in a chat: the proposal names the schedule and the first run, and
//! undo of the yes removes it.

use super::*;
use crate::common::Fields;

#[actix_rt::test]
async fn a_proposal_says_the_schedule_and_first_run_and_undo_of_the_yes_removes_it() {
    let bot = start_bot(PARIS).await;
    let (_task, thread) = bot.nudged_task("Pay rent").await;
    let action = proposal_action(
        &draft("every monday at 9 remind me to submit the timesheet"),
        Some(&thread),
    );
    let env = ActionEnv {
        now: bot.clock_now(),
        timezone: Paris,
        later: StdDuration::from_secs(3 * 3600),
        author_id: None,
    };
    let on = thread.clone();
    let plan = ok(bot
        .app
        .store
        .write(move |conn| {
            let proposal = donna::turn::apply::Proposal {
                thread_id: &on,
                requester_id: "owner",
                expiry: Duration::minutes(10),
            };
            donna::turn::apply::propose(conn, &proposal, vec![action], &env)
        })
        .await);
    assert!(
        plan.reply_text.starts_with(
            "I'd remind you to 'Submit the timesheet' every Monday at 09:00 (Europe/Paris), \
             first on Mon 30 Nov 09:00."
        ),
        "{}",
        plan.reply_text
    );

    let yes = bot.say(&thread, "yes").await;
    assert_eq!(yes["path"], "plan_confirmed", "{yes}");
    let reply = yes["reply"].text();
    assert!(
        reply.contains("I'll remind you to 'Submit the timesheet' every Monday at 09:00"),
        "{reply}"
    );
    let (_, listed) = bot.get("/api/automations").await;
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    let id = listed[0]["id"].text().to_string();

    let undone = bot.say(&thread, "undo").await;
    assert_eq!(undone["path"], "undone", "{undone}");
    assert!(
        undone["reply"]
            .text()
            .contains("won't remind you to 'Submit the timesheet'"),
        "{undone}"
    );
    assert_none_left(&bot, &id).await;
    bot.stop().await;
}
