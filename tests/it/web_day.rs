//! The person's day on the web page, in real Chromium: under "Your day" the page shows their
//! quiet hours (theirs, else the configured ones) and sets them (`PUT /api/people/{user_id}`),
//! says plainly why a value it cannot use was refused and changes nothing, and gives the
//! default back; a task's row shows its estimated duration when it has one, whether set
//! through the API or said to Donna on the page. Fields and buttons are found by their
//! accessible names, the contract with screen readers; the keyboard submits and presses.

use crate::common;
use crate::common::TestConfig;
use donna::config::LlmProvider;

use common::browser::{Browser, Tab};
use common::fake_llm::{out, start_fake_llm};
use common::page::{
    field, fill_in, item_in, js, named, never_reloaded, open_page, say_on_page, wait_listed,
    NEW_YORK,
};
use common::{start_bot, Bot};
use serde_json::json;

async fn quiet_hours_stored(bot: &Bot) -> serde_json::Value {
    bot.get("/api/people/web").await.1["quiet_hours"].clone()
}

/// Waits until the page shows `hours` as the person's quiet hours, in the field and in words.
async fn shown(tab: &Tab, hours: &str) {
    tab.wait_until(
        &format!("quiet hours {hours} shown"),
        &format!(
            "({field}).value === {hours} && document.getElementById('quiet').textContent \
             === {words}",
            field = field("Quiet hours"),
            hours = js(hours),
            words = js(&format!("Quiet hours {hours}, in America/New_York."))
        ),
    )
    .await;
}

#[actix_rt::test]
async fn the_page_shows_the_persons_quiet_hours_sets_them_and_gives_the_default_back() {
    let bot = start_bot(NEW_YORK).await;
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    // The configured ones, until the person sets their own.
    shown(&tab, "22:00-08:00").await;
    let names = tab.accessible_names().await;
    for (role, name) in [
        ("textbox", "Quiet hours"),
        ("button", "Set quiet hours"),
        ("button", "Use the default quiet hours"),
    ] {
        assert!(
            names.contains(&(role.to_string(), name.to_string())),
            "no {role} named {name:?} in {names:?}"
        );
    }
    // Values it cannot use: said beside the field, nothing stored, the field's hint says how.
    for (typed, said) in [
        ("10pm-7am", "invalid time \"10pm\""),
        ("23:00", "write them like \"22:00-08:00\""),
        ("25:00-07:00", "invalid time \"25:00\""),
    ] {
        fill_in(&tab, "Quiet hours", typed).await;
        tab.wait_until(
            &format!("the refusal of {typed}"),
            &format!(
                "(() => {{ const t = document.getElementById('quiet-error').textContent; \
                 return t.startsWith('Quiet hours not changed') && t.includes({}); }})()",
                js(said)
            ),
        )
        .await;
        assert_eq!(quiet_hours_stored(&bot).await, "22:00-08:00", "{typed}");
    }
    assert_eq!(
        tab.eval(&format!(
            "({}).getAttribute('aria-describedby')",
            field("Quiet hours")
        ))
        .await,
        json!("quiet-hint quiet-error"),
        "a screen reader reads the hint and the refusal with the field"
    );
    // Their own: stored, shown, the refusal gone.
    fill_in(&tab, "Quiet hours", "23:30-06:45").await;
    shown(&tab, "23:30-06:45").await;
    assert_eq!(quiet_hours_stored(&bot).await, "23:30-06:45");
    assert_eq!(
        tab.eval("document.getElementById('quiet-error').textContent")
            .await,
        json!("")
    );
    // Opened again, the page shows the person's own.
    let again = open_page(&bot, &browser, 1000).await;
    shown(&again, "23:30-06:45").await;
    // The default back, from the keyboard: Tab from the field to the button, then Enter.
    tab.click(&field("Quiet hours")).await;
    let default = named_button("Use the default quiet hours");
    for _ in 0..3 {
        if tab
            .eval(&format!("document.activeElement === ({default})"))
            .await
            == json!(true)
        {
            break;
        }
        tab.press("Tab").await;
    }
    assert_eq!(
        tab.eval(&format!("document.activeElement === ({default})"))
            .await,
        json!(true),
        "Tab reaches \"Use the default quiet hours\" from the field"
    );
    tab.press("Enter").await;
    shown(&tab, "22:00-08:00").await;
    assert_eq!(quiet_hours_stored(&bot).await, "22:00-08:00");
    never_reloaded(&tab).await;
}

/// A button by its text (the page's own buttons outside a list are named by their text).
fn named_button(text: &str) -> String {
    format!(
        "[...document.querySelectorAll('button')].find(b => b.textContent === {})",
        js(text)
    )
}

#[actix_rt::test]
async fn a_tasks_row_shows_its_estimated_duration_when_it_has_one() {
    let fake = start_fake_llm();
    let bot = TestConfig::yaml(NEW_YORK)
        .with_llm(&fake, LlmProvider::Ollama, 10, 2)
        .start()
        .await;
    bot.task(json!({ "title": "Deep work", "estimated_duration_minutes": 75 }))
        .await;
    bot.task(
        json!({ "title": "Dentist", "deadline": "2026-11-27T20:00:00Z",
                     "estimated_duration_minutes": 60 }),
    )
    .await;
    bot.task(json!({ "title": "Water the plants" })).await;
    let browser = Browser::launch().await;
    let tab = open_page(&bot, &browser, 1000).await;
    let row_says = |title: &str, text: &str| {
        format!(
            "(() => {{ const li = {}; return !!li && li.innerText.includes({}); }})()",
            item_in("Tasks", title),
            js(text)
        )
    };
    tab.wait_until(
        "the estimate",
        &row_says("Deep work", "takes about 1 hour 15 minutes"),
    )
    .await;
    tab.wait_until(
        "the time and the estimate",
        &format!(
            "{} && {}",
            row_says("Dentist", "due Fri 27 Nov, 15:00"),
            row_says("Dentist", "takes about 1 hour")
        ),
    )
    .await;
    wait_listed(&tab, "Tasks", "Water the plants", true).await;
    assert_eq!(
        tab.eval(&row_says("Water the plants", "takes about")).await,
        json!(false),
        "no estimate, nothing said"
    );
    // Said to Donna on the page, read by the model in one call: the row shows it.
    fake.push_for(
        "route",
        out(
            json!({"intent": "capture", "confidence": 0.9, "title": "Renew the passport",
                   "when": "by friday", "priority": 1, "estimated_minutes": 45}),
        ),
    );
    say_on_page(
        &tab,
        "urgent: renew the passport by friday, takes 45 min, bring the old one",
    )
    .await;
    tab.wait_until(
        "the captured task's estimate",
        &row_says("Renew the passport", "takes about 45 minutes"),
    )
    .await;
    assert!(
        tab.eval(&format!("!!({})", named("Done: Renew the passport")))
            .await
            == json!(true),
        "the row keeps its buttons"
    );
    never_reloaded(&tab).await;
}
