//! Officers, a Company and a Senior Officer for the command tests.

use std::collections::BTreeSet;

use super::{Activity, Comms, Company, Objective, SeniorOfficer, Subordinate};
use crate::officer::{ElementMakeup, Grade, Officer, Rank};
use crate::strategic::{RadioNet, SeniorOfficerRecord};

pub(super) fn co(g: Grade) -> Officer {
    Officer::new(Rank::CompanyOfficer, g).unwrap()
}

pub(super) fn nco(g: Grade) -> Officer {
    Officer::new(Rank::Nco, g).unwrap()
}

pub(super) fn so(g: Grade) -> Officer {
    Officer::new(Rank::SeniorOfficer, g).unwrap()
}

pub(super) fn hold(at: &str) -> Objective {
    Objective::new(Activity::Hold, at, "").unwrap()
}

pub(super) fn company(radio_netted: bool) -> Company {
    let el = |id, comms| Subordinate::new(id, nco(Grade::Regular), ElementMakeup::Mixed, comms);
    Company {
        id: "A Coy".into(),
        co: co(Grade::Regular),
        attached_to: "1 Pl".into(),
        radio: {
            let mut net = RadioNet::default();
            net.netted = radio_netted;
            net
        },
        rationed: false,
        objective: None,
        from_senior_officer: None,
        known: BTreeSet::new(),
        elements: vec![el("1 Pl", Comms::NoRadio), el("2 Pl", Comms::Radio), el("3 Pl", Comms::RadioDis)],
        successor: None,
    }
}

pub(super) fn senior() -> SeniorOfficer {
    SeniorOfficer::new(so(Grade::Average), SeniorOfficerRecord::new(60, 10).unwrap()).unwrap()
}
