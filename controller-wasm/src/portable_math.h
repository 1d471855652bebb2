/*
 * Transcendental functions that give bit-identical results on every platform.
 *
 * libm differs between glibc (native build) and musl (Emscripten's WASM build): cbrt, erfc, pow and exp
 * round differently in the last bit for some inputs. One such bit is enough to make the native library and
 * its WASM build disagree, and the project promises identical results (the equivalence tests replay the same
 * events through both). These functions use only IEEE basic operations (+ - * / sqrt, which are correctly
 * rounded everywhere) and exact ones (frexp, ldexp, floor), in a fixed order, so they round the same way on
 * every compiler that does not contract or reorder floating point (no -ffast-math; C11 mode keeps FMA
 * contraction off). Accuracy: a few ulp, far below what any controller decision depends on.
 */
#ifndef PCC_PORTABLE_MATH_H
#define PCC_PORTABLE_MATH_H

double pcc_log(double x);
double pcc_exp(double x);
double pcc_pow(double x, double y);   /* real results only: negative x with non-integer y gives NaN */
double pcc_cbrt(double x);
double pcc_erfc(double x);

#endif /* PCC_PORTABLE_MATH_H */
