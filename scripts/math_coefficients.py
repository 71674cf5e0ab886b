#!/usr/bin/env python3
"""Prints the constants of lib/Conversion/TileToGPU/MathFunctions.cpp.

Taylor coefficients are exact rationals rounded once; the two erf fits are
weighted least squares on Chebyshev nodes against Python's math.erf/erfc
(accurate to about 1 ulp of a double, far below f32's rounding), checked by
simulating the f32 evaluation (fma rounded once) over 30,000 points.
Needs numpy (python3-numpy). Run: python3 scripts/math_coefficients.py
"""
import math
from fractions import Fraction

import numpy as np

f32 = np.float32


def fma32(a, b, c):
    return f32(np.float64(a) * np.float64(b) + np.float64(c))


def horner32(c, x):  # c: highest degree first
    r = f32(c[0])
    for a in c[1:]:
        r = fma32(r, x, f32(a))
    return r


def ulps32(got, want):
    return abs(float(got) - want) / float(np.spacing(f32(want)))


def chebyshev(lo, hi, n=4000):
    return (np.cos(np.pi * (np.arange(n) + 0.5) / n) + 1) / 2 * (hi - lo) + lo


def show(name, coefficients, fmt="{:.9e}"):
    # Lowest degree first, as Horner's scheme in the C++ takes them.
    print(f"{name} = {{" + ", ".join(fmt.format(c) for c in coefficients) + "};")


# erf(x) = x + x R(x^2) on |x| < 1 (degree 6 in x^2).
x = chebyshev(0, 1)
R = np.array([math.erf(v) / v - 1 for v in x])
c, *_ = np.linalg.lstsq(np.vander(x * x, 7) * x[:, None], R * x, rcond=None)
c = [float(f32(v)) for v in c]
worst = max(ulps32(fma32(f32(v), horner32(c, f32(f32(v) * f32(v))), f32(v)),
                   math.erf(float(f32(v)))) for v in np.linspace(1e-4, 1, 30001))
print(f"// erf |x| < 1: {worst:.2f} ulp simulated")
show("kErfSmall", c[::-1])

# erf(x) = 1 - 2^Q(|x| - 2.5) on 1 <= |x| <= 4, Q ~ log2(erfc), weighted by
# erfc so that the error is even in units of erf's last place (degree 9).
t = chebyshev(1, 4)
Q = np.array([math.log2(math.erfc(v)) for v in t])
w = np.array([math.erfc(v) for v in t])
c, *_ = np.linalg.lstsq(np.vander(t - 2.5, 10) * w[:, None], Q * w, rcond=None)
c = [float(f32(v)) for v in c]
worst = max(ulps32(f32(1) - f32(2.0 ** float(horner32(c, f32(f32(v) - f32(2.5))))),
                   math.erf(float(f32(v)))) for v in np.linspace(1, 4, 30001))
print(f"// erf 1 <= |x| <= 4: {worst:.2f} ulp simulated (exact 2^q)")
show("kErfLarge", c[::-1])

# tanh (f32) = x + x^3 P(x^2) on |x| < 0.6, P of degree 4, weighted to the
# relative error of tanh.
x = chebyshev(1e-4, 0.6)
P = np.array([(math.tanh(v) / v - 1) / (v * v) for v in x])
w = x**3 / np.array([math.tanh(v) for v in x])
c, *_ = np.linalg.lstsq(np.vander(x * x, 5) * w[:, None], P * w, rcond=None)
c = [float(f32(v)) for v in c]
worst = max(ulps32(fma32(f32(f32(v) * f32(f32(v) * f32(v))),
                         horner32(c, f32(f32(v) * f32(v))), f32(v)),
                   math.tanh(float(f32(v)))) for v in np.linspace(1e-4, 0.6, 30001))
print(f"// tanh |x| < 0.6: {worst:.2f} ulp simulated")
show("kTanhF32", c[::-1])

# tanh's Taylor series (sinh / cosh, exact): x (1 + x^2 P(x^2)), for f64.
terms = 22
sinh = [Fraction(1, math.factorial(2 * k + 1)) for k in range(terms)]
cosh = [Fraction(1, math.factorial(2 * k)) for k in range(terms)]
tanh = []
for k in range(terms):
    tanh.append(sinh[k] - sum(tanh[j] * cosh[k - j] for j in range(k)))
show("kTanhF64", [float(v) for v in tanh[:21]], "{:.17g}")
# Terms left out at |x| = 0.6: relative size of the first dropped one.
print(f"// tanh dropped term at 0.6 (f64): {float(tanh[21]) * 0.6**42:.1e}")

# sin and cos on |r| <= pi/4: Taylor, (-1)^k / (2k+1)! and (-1)^k / (2k)!.
show("kSin", [(-1) ** k / math.factorial(2 * k + 1) for k in range(9)], "{:.17g}")
show("kCos", [(-1) ** k / math.factorial(2 * k) for k in range(10)], "{:.17g}")

# pi/2 in three doubles (Cody and Waite's reduction with fma).
PI = Fraction("3.14159265358979323846264338327950288419716939937510582097494459230781640628620899863")
half = PI / 2
p1 = float(half)
p2 = float(half - Fraction(p1))
p3 = float(half - Fraction(p1) - Fraction(p2))
print(f"kPiOver2 = {{{p1!r}, {p2!r}, {p3!r}}};")
print(f"k2OverPi = {float(1 / half)!r};")
