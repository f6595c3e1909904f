//! Quantities the books count in halves: points ("½ point") and loads
//! ("Small explosive charge 1/2"). One macro gives such a newtype over a
//! count of halves its constructors, arithmetic and "n½" display.

/// Implements a half-unit quantity for `$name(u32)`, whose field counts halves.
macro_rules! impl_halves {
    ($name:ident) => {
        impl $name {
            pub const ZERO: Self = Self(0);
            pub const HALF: Self = Self(1);

            /// `n` whole units.
            pub const fn whole(n: u32) -> Self {
                Self(n * 2)
            }

            /// The quantity in halves.
            pub const fn halves(self) -> u32 {
                self.0
            }
        }

        impl std::ops::Add for $name {
            type Output = Self;
            fn add(self, rhs: Self) -> Self {
                Self(self.0 + rhs.0)
            }
        }

        impl std::ops::AddAssign for $name {
            fn add_assign(&mut self, rhs: Self) {
                self.0 += rhs.0;
            }
        }

        impl std::ops::Mul<u32> for $name {
            type Output = Self;
            fn mul(self, n: u32) -> Self {
                Self(self.0 * n)
            }
        }

        impl std::iter::Sum for $name {
            fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
                iter.fold(Self::ZERO, |a, b| a + b)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match (self.0 / 2, self.0 % 2) {
                    (0, 1) => write!(f, "½"),
                    (n, 1) => write!(f, "{n}½"),
                    (n, _) => write!(f, "{n}"),
                }
            }
        }
    };
}

pub(crate) use impl_halves;
