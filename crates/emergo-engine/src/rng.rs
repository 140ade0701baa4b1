//! The engine's one small random generator, xorshift64* (Marsaglia, Vigna): seeded players
//! (random, levels, MCTS) draw from it so that their games replay for a seed.

/// xorshift64*: 64 bits of state, never zero.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator starting from `state` (zero, which would stick, is replaced by one).
    pub fn new(state: u64) -> XorShift {
        XorShift(if state == 0 { 1 } else { state })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_seed_does_not_stick_and_equal_seeds_give_equal_streams() {
        let mut zero = XorShift::new(0);
        assert_ne!(zero.next_u64(), zero.next_u64());
        let (mut a, mut b) = (XorShift::new(42), XorShift::new(42));
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
    }
}
