//! A real headless browser for the web page's tests: Debian's Chromium, driven over the Chrome
//! DevTools Protocol (JSON over one WebSocket, tokio-websockets' client). No driver binary, no
//! generated protocol crate: the handful of commands the tests use (navigate, evaluate, mouse
//! and keyboard input, the accessibility tree, cookies, network events, a screenshot).
//!
//! Chromium is required: without it `Browser::launch` FAILS the test with how to install it
//! (the README's test command, `scripts/test`, installs it), never skips. The browser is
//! `$CHROMIUM` when set (any Chromium or Chrome binary, for systems other than Debian), else
//! Debian's `/usr/bin/chromium`.

use super::{Fields, Needed};
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::stream::{SplitSink, StreamExt};
use futures_util::SinkExt;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_websockets::{ClientBuilder, Message, WebSocketStream};

/// Where Debian puts Chromium (`apt-get install -y chromium`), when `$CHROMIUM` names none.
const DEBIAN_CHROMIUM: &str = "/usr/bin/chromium";

/// The browser the tests drive: `$CHROMIUM`, else Debian's.
fn chromium() -> String {
    std::env::var("CHROMIUM")
        .ok()
        .filter(|path| !path.is_empty())
        .unwrap_or_else(|| DEBIAN_CHROMIUM.to_string())
}
/// How long a page may take to show what a test waits for (generous: the machine is shared).
pub const PAGE_WAIT: Duration = Duration::from_secs(30);

type Sink = SplitSink<WebSocketStream<TcpStream>, Message>;
type Answer = Result<Value, Value>;

/// The DevTools connection: commands answered by id, events kept in arrival order.
#[derive(Clone)]
struct Cdp {
    sink: Arc<tokio::sync::Mutex<Sink>>,
    next_id: Arc<Mutex<u64>>,
    pending: Arc<Mutex<HashMap<u64, oneshot::Sender<Answer>>>>,
    events: Arc<Mutex<Vec<Value>>>,
}

impl Cdp {
    async fn call(&self, session: Option<&str>, method: &str, params: Value) -> Value {
        let id = {
            let mut next = self.next_id.lock().unwrap_or_else(|e| e.into_inner());
            *next += 1;
            *next
        };
        let (sender, receiver) = oneshot::channel();
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, sender);
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let sent = self
            .sink
            .lock()
            .await
            .send(Message::text(message.to_string()))
            .await;
        if let Err(error) = sent {
            panic!("DevTools {method}: cannot send: {error}");
        }
        match tokio::time::timeout(PAGE_WAIT, receiver).await {
            Ok(Ok(Ok(result))) => result,
            Ok(Ok(Err(error))) => panic!("DevTools {method} failed: {error}"),
            Ok(Err(_)) => panic!("DevTools {method}: the browser went away"),
            Err(_) => panic!("DevTools {method}: no answer within {PAGE_WAIT:?}"),
        }
    }
}

/// A Chromium process, killed (and its profile removed) on drop.
pub struct Browser {
    child: Child,
    cdp: Cdp,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    /// Starts headless Chromium with a fresh profile and connects to it.
    pub async fn launch() -> Browser {
        let chromium = chromium();
        assert!(
            std::path::Path::new(&chromium).exists(),
            "the web page's tests drive a real browser and {chromium} is not there: install \
             Debian's package `chromium` (scripts/test does), or set CHROMIUM to a Chromium or \
             Chrome binary"
        );
        let profile = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let mut child = Command::new(&chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--remote-debugging-port=0",
                "--window-size=1000,760",
                "--lang=en-GB",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {chromium}: {e}"));
        let stderr = child
            .stderr
            .take()
            .unwrap_or_else(|| panic!("no stderr from chromium"));
        // Chromium prints its DevTools address on stderr; the rest of stderr is drained on a
        // thread so the browser never blocks on a full pipe.
        let (found, address) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("DevTools listening on ") {
                    if !sent {
                        let _ = found.send(url.trim().to_string());
                        sent = true;
                    }
                }
            }
        });
        let url = address
            .recv_timeout(PAGE_WAIT)
            .unwrap_or_else(|_| panic!("chromium printed no DevTools address"));
        let host = url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .needed()
            .to_string();
        let tcp = TcpStream::connect(&host)
            .await
            .unwrap_or_else(|e| panic!("connect to chromium at {host}: {e}"));
        let (socket, _) = ClientBuilder::new()
            .uri(&url)
            .unwrap_or_else(|e| panic!("{url}: {e}"))
            .connect_on(tcp)
            .await
            .unwrap_or_else(|e| panic!("DevTools handshake: {e}"));
        let (sink, mut stream) = socket.split();
        let cdp = Cdp {
            sink: Arc::new(tokio::sync::Mutex::new(sink)),
            next_id: Arc::default(),
            pending: Arc::default(),
            events: Arc::default(),
        };
        let reader = cdp.clone();
        tokio::spawn(async move {
            while let Some(Ok(message)) = stream.next().await {
                let Some(text) = message.as_text() else {
                    continue;
                };
                let Ok(value) = serde_json::from_str::<Value>(text) else {
                    continue;
                };
                match value["id"].as_u64() {
                    Some(id) => {
                        let waiting = reader
                            .pending
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .remove(&id);
                        if let Some(waiting) = waiting {
                            let answer = match value.get("error") {
                                Some(error) => Err(error.clone()),
                                None => Ok(value["result"].clone()),
                            };
                            let _ = waiting.send(answer);
                        }
                    }
                    None => reader
                        .events
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(value),
                }
            }
        });
        Browser {
            child,
            cdp,
            _profile: profile,
        }
    }

    /// A new tab, with the network and page domains on, its viewport `width` x `height`.
    pub async fn tab(&self, width: u32, height: u32) -> Tab {
        let target = self
            .cdp
            .call(None, "Target.createTarget", json!({ "url": "about:blank" }))
            .await;
        let target_id = target["targetId"].text().to_string();
        let attached = self
            .cdp
            .call(
                None,
                "Target.attachToTarget",
                json!({ "targetId": target_id, "flatten": true }),
            )
            .await;
        let session = attached["sessionId"].text().to_string();
        let tab = Tab {
            cdp: self.cdp.clone(),
            session,
        };
        tab.call("Page.enable", json!({})).await;
        tab.call("Network.enable", json!({})).await;
        tab.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false }),
        )
        .await;
        tab
    }
}

/// One tab of the browser.
pub struct Tab {
    cdp: Cdp,
    session: String,
}

impl Tab {
    pub async fn call(&self, method: &str, params: Value) -> Value {
        self.cdp.call(Some(&self.session), method, params).await
    }

    /// Opens `url` and waits until the page's script says it is ready, or the token form shows.
    pub async fn open(&self, url: &str) {
        self.call("Page.navigate", json!({ "url": url })).await;
        self.wait_until(
            "the page to load",
            "document.body && (document.body.dataset.ready === 'yes' \
             || !document.getElementById('token-form').hidden)",
        )
        .await;
    }

    /// The value of a JavaScript expression (promises awaited); panics on an exception.
    pub async fn eval(&self, expression: &str) -> Value {
        let answer = self
            .call(
                "Runtime.evaluate",
                json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
            )
            .await;
        if let Some(exception) = answer.get("exceptionDetails") {
            panic!("the page threw on {expression}: {exception}");
        }
        answer["result"]["value"].clone()
    }

    /// Polls `condition` (a JavaScript expression) until it is true; panics after `PAGE_WAIT`
    /// naming `what` and showing the page's text.
    pub async fn wait_until(&self, what: &str, condition: &str) {
        let held = super::eventually(PAGE_WAIT, || async {
            let answer = self
                .call(
                    "Runtime.evaluate",
                    json!({ "expression": condition, "returnByValue": true }),
                )
                .await;
            answer["result"]["value"] == json!(true)
        })
        .await;
        if !held {
            let text = self
                .eval("document.body ? document.body.innerText : ''")
                .await;
            panic!("waited {PAGE_WAIT:?} for {what}; the page shows:\n{text}");
        }
    }

    /// Clicks the middle of the element `element` (a JavaScript expression) with the mouse, as a
    /// person would: scrolled into view, pressed and released there.
    pub async fn click(&self, element: &str) {
        let place = self
            .eval(&format!(
                "(() => {{ const el = {element}; if (!el) return null; \
                 el.scrollIntoView({{block: 'center'}}); const r = el.getBoundingClientRect(); \
                 return {{x: r.x + r.width / 2, y: r.y + r.height / 2}}; }})()"
            ))
            .await;
        assert!(place.is_object(), "nothing to click: {element}");
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": place["x"], "y": place["y"], "button": "left", "clickCount": 1 }),
            )
            .await;
        }
    }

    /// Types `text` where the focus is, as the keyboard would insert it.
    pub async fn type_text(&self, text: &str) {
        self.call("Input.insertText", json!({ "text": text })).await;
    }

    /// Presses a key that has no text (`Tab`) or Enter.
    pub async fn press(&self, key: &str) {
        let (code, text) = match key {
            "Enter" => (13, "\r"),
            "Tab" => (9, ""),
            other => panic!("no key code for {other}"),
        };
        let down = json!({ "type": if text.is_empty() { "rawKeyDown" } else { "keyDown" },
            "key": key, "code": key, "windowsVirtualKeyCode": code, "text": text });
        self.call("Input.dispatchKeyEvent", down).await;
        let up = json!({ "type": "keyUp", "key": key, "code": key, "windowsVirtualKeyCode": code });
        self.call("Input.dispatchKeyEvent", up).await;
    }

    /// Every (role, name) of the page's accessibility tree, as assistive technology reads it.
    pub async fn accessible_names(&self) -> Vec<(String, String)> {
        let tree = self.call("Accessibility.getFullAXTree", json!({})).await;
        tree["nodes"]
            .as_array()
            .map(|nodes| {
                nodes
                    .iter()
                    .filter(|node| node["ignored"] != json!(true))
                    .map(|node| {
                        (
                            node["role"]["value"].text().to_string(),
                            node["name"]["value"].text().to_string(),
                        )
                    })
                    .collect()
            })
            .needed()
    }

    /// The cookies the browser keeps for `url`.
    pub async fn cookies(&self, url: &str) -> Vec<Value> {
        let answer = self
            .call("Network.getCookies", json!({ "urls": [url] }))
            .await;
        answer["cookies"].items().to_vec()
    }

    /// The tab's DevTools events named `method`, in arrival order.
    pub fn events(&self, method: &str) -> Vec<Value> {
        self.cdp
            .events
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|event| {
                event["method"] == json!(method) && event["sessionId"] == json!(self.session)
            })
            .map(|event| event["params"].clone())
            .collect()
    }

    /// A PNG of what the tab shows.
    pub async fn screenshot(&self) -> Vec<u8> {
        use base64::Engine;
        let answer = self
            .call("Page.captureScreenshot", json!({ "format": "png" }))
            .await;
        base64::engine::general_purpose::STANDARD
            .decode(answer["data"].text())
            .unwrap_or_else(|e| panic!("screenshot: {e}"))
    }
}
