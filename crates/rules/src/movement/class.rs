//! What an element moves as ([`MoveClass`]): its rows of the Movement Table
//! on land and in water, and how a vehicle is driven ([`Drive`]).

use serde::{Deserialize, Serialize};

use super::Row;

/// What an element is, for movement: it picks its rows of the table on land
/// and in water.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoveClass {
    Infantry,
    /// Infantry carrying an HMtr or HMG.
    CarriedCsw,
    HandMovedGun,
    Bicycle,
    /// A limbered horse-towed gun ("Horse towed guns move as indicated").
    HorseTowedGun,
    MountedCavalry,
    Motorcycle,
    MotorcycleSidecar,
    NonMilitaryCar,
    MilitaryCar,
    LightTruck,
    MediumTruck,
    AwdTruck,
    TowingVehicle,
    HalfTrack,
    ArmouredCar,
    SlowTank,
    Tank,
    FastTank,
    Goliath,
    Bulldozer,
    /// Improvised or paddled raft; canoes and rowing boats move on this row.
    Raft,
    PoweredBoat,
    Mtb,
    VehicleFerry,
    /// Amphibious: the Kubelwagen row on land, its own row in water.
    Schwimmwagen,
    /// Amphibious: the tank row on land, the "swimming" tank row in water.
    SwimmingTank,
}

impl MoveClass {
    /// Its row on land; `None` for craft that only float.
    pub fn land_row(self) -> Option<Row> {
        use MoveClass as C;
        Some(match self {
            C::Infantry => Row::Infantry,
            C::CarriedCsw => Row::CarriedCsw,
            C::HandMovedGun => Row::HandMovedGun,
            C::Bicycle => Row::Bicycle,
            C::HorseTowedGun => Row::HorseTow,
            C::MountedCavalry => Row::MountedCavalry,
            C::Motorcycle => Row::Motorcycle,
            C::MotorcycleSidecar => Row::MotorcycleSidecar,
            C::NonMilitaryCar => Row::NonMilitaryCar,
            C::MilitaryCar | C::Schwimmwagen => Row::MilitaryCar,
            C::LightTruck => Row::LightTruck,
            C::MediumTruck => Row::MediumTruck,
            C::AwdTruck => Row::AwdTruck,
            C::TowingVehicle => Row::TowingVehicle,
            C::HalfTrack => Row::HalfTrack,
            C::ArmouredCar => Row::ArmouredCar,
            C::SlowTank => Row::SlowTank,
            C::Tank | C::SwimmingTank => Row::Tank,
            C::FastTank => Row::FastTank,
            C::Goliath => Row::Goliath,
            C::Bulldozer => Row::Bulldozer,
            C::Raft | C::PoweredBoat | C::Mtb | C::VehicleFerry => return None,
        })
    }

    /// Its row in water; `None` for what cannot enter it. Infantry wade;
    /// cavalry cross a small river "at 1 x D6 per bound" (*Heroes All*,
    /// "Rivers"), the wading figure.
    pub fn water_row(self) -> Option<Row> {
        use MoveClass as C;
        Some(match self {
            C::Infantry | C::CarriedCsw | C::MountedCavalry => Row::Wading,
            C::Raft => Row::Raft,
            C::PoweredBoat => Row::PoweredBoat,
            C::Mtb => Row::Mtb,
            C::VehicleFerry => Row::VehicleFerry,
            C::Schwimmwagen => Row::Schwimmwagen,
            C::SwimmingTank => Row::SwimmingTank,
            _ => return None,
        })
    }

    /// Men on foot: the infantry rows (sheer, crawl, built-up) and the stealth move are theirs.
    pub fn on_foot(self) -> bool {
        matches!(self, Self::Infantry | Self::CarriedCsw)
    }

    /// A vehicle for the "-2 pips per dice" modifiers. Reading: the table's
    /// Type column; rows from the motor cycle down are vehicles, so
    /// bicycles, cavalry, horse tows and hand-moved guns are not.
    pub fn is_vehicle(self) -> bool {
        !matches!(
            self,
            Self::Infantry
                | Self::CarriedCsw
                | Self::HandMovedGun
                | Self::Bicycle
                | Self::HorseTowedGun
                | Self::MountedCavalry
        )
    }

    /// Wades rather than floats in a river.
    pub fn wades(self) -> bool {
        self.water_row() == Some(Row::Wading)
    }

    /// An AFV for "All AFVs move at 1D6 per bound in built up areas": the
    /// armoured car, tank and half-track (Bren Carrier/SdKfz 251) rows.
    pub fn is_afv(self) -> bool {
        matches!(
            self,
            Self::HalfTrack | Self::ArmouredCar | Self::SlowTank | Self::Tank | Self::FastTank | Self::SwimmingTank
        )
    }

    /// The drive its row suggests; the codex may name another (a Jeep is
    /// all-wheel drive, a Kubelwagen is not; a Bren Carrier is tracked).
    /// `None` for men, horses and craft that only float.
    pub fn default_drive(self) -> Option<Drive> {
        use MoveClass as C;
        match self {
            C::Motorcycle
            | C::MotorcycleSidecar
            | C::NonMilitaryCar
            | C::MilitaryCar
            | C::LightTruck
            | C::MediumTruck => Some(Drive::Wheeled),
            C::TowingVehicle | C::ArmouredCar => Some(Drive::Wheeled),
            C::AwdTruck | C::Schwimmwagen => Some(Drive::AllWheelDrive),
            C::HalfTrack => Some(Drive::HalfTracked),
            C::SlowTank | C::Tank | C::FastTank | C::SwimmingTank | C::Goliath | C::Bulldozer => Some(Drive::Tracked),
            _ => None,
        }
    }
}

/// How a vehicle is driven (the 2020 addendum "Weather": "tracked,
/// half-tracked, all wheel drive"; "Tracked vehicles passing over … rough ground").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Drive {
    /// Ordinary trucks, cars and motorcycles.
    Wheeled,
    AllWheelDrive,
    HalfTracked,
    Tracked,
}
