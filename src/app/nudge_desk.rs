//! The app's door for a nudge asked for (`POST /api/nudges`, the console's `nudge`): the
//! `nudges::NudgeDesk` over the app's store, clock, zone and event bus, with Discord's
//! `NudgeSink` while Discord is on.

use std::sync::Arc;

use crate::discord::DiscordNudges;
use crate::nudges::{NudgeDesk, NudgeSink};

impl super::App {
    /// The one door for a nudge asked for.
    pub fn nudge_desk(&self) -> NudgeDesk {
        let sink = self.discord.clone().map(|gateway| {
            let sink: Arc<dyn NudgeSink> = Arc::new(DiscordNudges::new(gateway));
            sink
        });
        NudgeDesk {
            store: self.store.clone(),
            clock: self.clock.clone(),
            zone: self.config.timezone.zone(),
            events: self.events.clone(),
            sink,
        }
    }
}
