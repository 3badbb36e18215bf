//! The web page's parts as a test finds them: regions by their heading, items by their text,
//! buttons by their label, fields by their label; a page opened and marked so that a reload
//! would show; typing into "Message Donna" (or any field) as a person does.

use serde_json::{json, Value};

use super::browser::{Browser, Tab};
use super::Bot;

/// Times are shown in the person's zone (here the configured one, 5 hours behind UTC in
/// November), never in UTC or the browser's own.
pub const NEW_YORK: &str = "timezone: America/New_York\n";

/// A string as a JavaScript literal.
pub fn js(text: &str) -> String {
    json!(text).to_string()
}

/// The element of the region named `region` whose text includes `text` (an item of a list, a
/// message), as a JavaScript expression.
pub fn item_in(region: &str, text: &str) -> String {
    format!(
        "[...[...document.querySelectorAll('section')] \
         .find(s => s.querySelector('h2').textContent === {region}) \
         .querySelectorAll('li')].find(li => li.innerText.includes({text}))",
        region = js(region),
        text = js(text)
    )
}

/// The button labelled `label` in that item.
pub fn button_in(region: &str, text: &str, label: &str) -> String {
    format!(
        "[...({item}).querySelectorAll('button')].find(b => b.textContent.startsWith({label}))",
        item = item_in(region, text),
        label = js(label)
    )
}

/// How many items of the region include `text`.
pub fn count_in(region: &str, text: &str) -> String {
    format!(
        "[...[...document.querySelectorAll('section')] \
         .find(s => s.querySelector('h2').textContent === {region}) \
         .querySelectorAll('li')].filter(li => li.innerText.includes({text})).length",
        region = js(region),
        text = js(text)
    )
}

/// Waits until the region named `region` lists an item with `text` (`listed`), or none.
pub async fn wait_listed(tab: &Tab, region: &str, text: &str, listed: bool) {
    let (what, expression) = if listed {
        ("to be listed", format!("!!({})", item_in(region, text)))
    } else {
        ("to leave the list", format!("!({})", item_in(region, text)))
    };
    tab.wait_until(&format!("{text:?} in {region} {what}"), &expression)
        .await;
}

/// Waits until the proposal about `text` in "Waiting for you" says it is someone else's to
/// answer, and checks it offers no button.
pub async fn for_someone_else(tab: &Tab, text: &str) {
    let proposal = item_in("Waiting for you", text);
    tab.wait_until(
        &format!("the proposal about {text:?}, for someone else only"),
        &format!(
            "(() => {{ const li = {proposal}; return !!li && li.innerText.includes('only they can answer it'); }})()"
        ),
    )
    .await;
    assert_eq!(
        tab.eval(&format!("({proposal}).querySelectorAll('button').length"))
            .await,
        json!(0),
        "someone else's proposal shows no buttons"
    );
}

/// Opens the page in a new tab and marks its document, so a reload would show.
pub async fn open_page(bot: &Bot, browser: &Browser, width: u32) -> Tab {
    let tab = browser.tab(width, 760).await;
    tab.open(&format!("{}/", bot.base)).await;
    tab.eval("window.sameDocument = true").await;
    tab
}

/// Focuses "Message Donna" by clicking its label, types `text` and presses Enter.
pub async fn say_on_page(tab: &Tab, text: &str) {
    tab.click(
        "[...document.querySelectorAll('label')].find(l => l.textContent === 'Message Donna')",
    )
    .await;
    assert_eq!(
        tab.eval("document.activeElement.id").await,
        json!("message"),
        "clicking the label focuses the field"
    );
    tab.type_text(text).await;
    tab.press("Enter").await;
}

pub async fn never_reloaded(tab: &Tab) {
    assert_eq!(
        tab.eval("window.sameDocument === true").await,
        json!(true),
        "the page was reloaded"
    );
}

pub async fn task_status(bot: &Bot, id: &str) -> Value {
    bot.task_json(id).await["status"].clone()
}

/// The button whose accessible name is `name`.
pub fn named(name: &str) -> String {
    format!(
        "[...document.querySelectorAll('button')].find(b => b.getAttribute('aria-label') === {})",
        js(name)
    )
}

/// The field labelled `label`.
pub fn field(label: &str) -> String {
    format!(
        "(() => {{ const l = [...document.querySelectorAll('label')].find(l => l.textContent === {}); \
         return l && document.getElementById(l.htmlFor); }})()",
        js(label)
    )
}

pub async fn press_named(tab: &Tab, name: &str) {
    tab.wait_until(
        name,
        &format!("!!({}) && !({}).disabled", named(name), named(name)),
    )
    .await;
    tab.click(&named(name)).await;
}

/// Clicks the field labelled `label` by its label, replaces what it holds with `text` and
/// presses Enter.
pub async fn fill_in(tab: &Tab, label: &str, text: &str) {
    tab.click(&format!(
        "[...document.querySelectorAll('label')].find(l => l.textContent === {})",
        js(label)
    ))
    .await;
    assert_eq!(
        tab.eval(&format!("document.activeElement === {}", field(label)))
            .await,
        json!(true),
        "clicking the label {label:?} focuses its field"
    );
    tab.eval("document.activeElement.select()").await;
    tab.type_text(text).await;
    tab.press("Enter").await;
}
