#ifndef CGAUSSNEWTON_H
#define CGAUSSNEWTON_H

/// The benchmark's reference solver: a plain Gauss–Newton fit of a horizontal position to log-ranges, written in C,
/// so that `indoor-bench positioning` can state the `nonlinear` solver's speed as a ratio to it measured in the same
/// run. It solves the same problem as `NonlinearLeastSquares` (residual (ln ‖p − cᵢ‖ − ln dᵢ) / sᵢ with the device at
/// `device_z`, sᵢ² = Var(dᵢ) / dᵢ², started at the centroid weighted by 1 / dᵢ²), without its robust loss, damping,
/// collinearity check or covariance: at most `iterations` steps, stopping when a step is shorter than `tolerance` m.
///
/// `x`, `y`, `z`: the nodes' positions (m); `distance` (m) and `variance` (m²): each node's range and its variance;
/// `n` nodes. Writes the position to `out_x`, `out_y` (m) and returns 1, or returns 0 when fewer than 3 nodes are
/// given or the fit leaves the finite numbers.
int indoor_gauss_newton(const double *x, const double *y, const double *z, const double *distance,
                        const double *variance, int n, double device_z, int iterations, double tolerance,
                        double *out_x, double *out_y);

#endif
