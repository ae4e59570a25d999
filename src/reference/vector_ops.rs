//! CPU twins of the sparse-vector routines: Axpby, Gather, Scatter, Rot, SpVV.
//!
//! Values are `(re, im)` pairs of f64 (real data has `im == 0`). X is given as its stored indices
//! (with `base` still added, as on the device) and values; Y as a dense slice.

/// A real or complex value.
pub type Value = (f64, f64);

pub const ZERO: Value = (0.0, 0.0);

pub fn add(a: Value, b: Value) -> Value {
    (a.0 + b.0, a.1 + b.1)
}

pub fn sub(a: Value, b: Value) -> Value {
    (a.0 - b.0, a.1 - b.1)
}

pub fn mul(a: Value, b: Value) -> Value {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

pub fn conj(a: Value) -> Value {
    (a.0, -a.1)
}

fn pos(index: i64, base: i64) -> usize {
    (index - base) as usize
}

/// `y = beta * y` everywhere (beta == 0 writes zeros without reading y), then
/// `y[idx[i]] += alpha * x[i]`.
pub fn axpby(alpha: Value, indices: &[i64], base: i64, x: &[Value], beta: Value, y: &mut [Value]) {
    for v in y.iter_mut() {
        *v = if beta == ZERO { ZERO } else { mul(beta, *v) };
    }
    for (i, &index) in indices.iter().enumerate() {
        let j = pos(index, base);
        y[j] = add(mul(alpha, x[i]), y[j]);
    }
}

/// `x[i] = y[idx[i]]`.
pub fn gather(y: &[Value], indices: &[i64], base: i64, x: &mut [Value]) {
    for (i, &index) in indices.iter().enumerate() {
        x[i] = y[pos(index, base)];
    }
}

/// `y[idx[i]] = x[i]`.
pub fn scatter(indices: &[i64], base: i64, x: &[Value], y: &mut [Value]) {
    for (i, &index) in indices.iter().enumerate() {
        y[pos(index, base)] = x[i];
    }
}

/// `x' = c x + s y`, `y' = c y - s x`, from the old x and y.
pub fn rot(c: Value, s: Value, indices: &[i64], base: i64, x: &mut [Value], y: &mut [Value]) {
    for (i, &index) in indices.iter().enumerate() {
        let j = pos(index, base);
        let (xi, yj) = (x[i], y[j]);
        x[i] = add(mul(c, xi), mul(s, yj));
        y[j] = sub(mul(c, yj), mul(s, xi));
    }
}

/// `sum op(x[i]) * y[idx[i]]`, op conjugating x when `conj_x`.
pub fn spvv(conj_x: bool, indices: &[i64], base: i64, x: &[Value], y: &[Value]) -> Value {
    let mut sum = ZERO;
    for (i, &index) in indices.iter().enumerate() {
        let xi = if conj_x { conj(x[i]) } else { x[i] };
        sum = add(sum, mul(xi, y[pos(index, base)]));
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axpby_scales_every_entry_and_adds_the_stored_ones() {
        let mut y = vec![(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)];
        axpby((2.0, 0.0), &[4, 2], 1, &[(10.0, 0.0), (20.0, 0.0)], (3.0, 0.0), &mut y);
        assert_eq!(y, vec![(3.0, 0.0), (46.0, 0.0), (9.0, 0.0), (32.0, 0.0)]);
    }

    #[test]
    fn axpby_with_zero_beta_drops_nan() {
        let mut y = vec![(f64::NAN, 0.0); 3];
        axpby((1.0, 0.0), &[1], 0, &[(5.0, 1.0)], ZERO, &mut y);
        assert_eq!(y, vec![ZERO, (5.0, 1.0), ZERO]);
    }

    #[test]
    fn gather_and_scatter_are_inverse_on_the_pattern() {
        let y = vec![(1.0, 1.0), (2.0, 2.0), (3.0, 3.0)];
        let mut x = vec![ZERO; 2];
        gather(&y, &[2, 0], 0, &mut x);
        assert_eq!(x, vec![(3.0, 3.0), (1.0, 1.0)]);
        let mut z = vec![(9.0, 9.0); 3];
        scatter(&[2, 0], 0, &x, &mut z);
        assert_eq!(z, vec![(1.0, 1.0), (9.0, 9.0), (3.0, 3.0)]);
    }

    #[test]
    fn rot_uses_the_old_values() {
        let mut x = vec![(1.0, 0.0)];
        let mut y = vec![(5.0, 0.0), (2.0, 0.0)];
        rot((0.5, 0.0), (2.0, 0.0), &[2], 1, &mut x, &mut y);
        assert_eq!(x, vec![(4.5, 0.0)]);
        assert_eq!(y, vec![(5.0, 0.0), (-1.0, 0.0)]);
    }

    #[test]
    fn spvv_conjugates_x_on_request() {
        let x = [(1.0, 2.0), (0.0, 1.0)];
        let y = [(3.0, 0.0), (0.0, 0.0), (0.0, 1.0)];
        assert_eq!(spvv(false, &[0, 2], 0, &x, &y), (2.0, 6.0));
        assert_eq!(spvv(true, &[0, 2], 0, &x, &y), (4.0, -6.0));
    }
}
