#include "CGaussNewton.h"

#include <math.h>

enum { most_nodes = 64 };

int indoor_gauss_newton(const double *x, const double *y, const double *z, const double *distance,
                        const double *variance, int n, double device_z, int iterations, double tolerance,
                        double *out_x, double *out_y) {
    if (n < 3) return 0;
    if (n > most_nodes) n = most_nodes;
    double log_range[most_nodes];
    double weight[most_nodes];
    double dz2[most_nodes];
    double px = 0, py = 0, total = 0;
    for (int i = 0; i < n; i++) {
        double d = distance[i] > 0.05 ? distance[i] : 0.05;
        double relative = variance[i] / (d * d);
        log_range[i] = log(d);
        weight[i] = 1 / (relative > 1e-4 ? relative : 1e-4);
        double dz = z[i] - device_z;
        dz2[i] = dz * dz;
        double w = 1 / (d * d);
        px += w * x[i];
        py += w * y[i];
        total += w;
    }
    px /= total;
    py /= total;
    for (int iteration = 0; iteration < iterations; iteration++) {
        // Normal equations JᵀWJ s = −JᵀWr for the residuals r = ln ‖p − c‖ − ln d.
        double hxx = 0, hxy = 0, hyy = 0, gx = 0, gy = 0;
        for (int i = 0; i < n; i++) {
            double dx = px - x[i];
            double dy = py - y[i];
            double s = dx * dx + dy * dy + dz2[i];
            if (s < 1e-4) s = 1e-4;
            double jx = dx / s;
            double jy = dy / s;
            double r = 0.5 * log(s) - log_range[i];
            double w = weight[i];
            hxx += w * jx * jx;
            hxy += w * jx * jy;
            hyy += w * jy * jy;
            gx += w * jx * r;
            gy += w * jy * r;
        }
        double determinant = hxx * hyy - hxy * hxy;
        if (!(fabs(determinant) > 1e-12)) break;
        double sx = (-gx * hyy + gy * hxy) / determinant;
        double sy = (-gy * hxx + gx * hxy) / determinant;
        px += sx;
        py += sy;
        if (sx * sx + sy * sy < tolerance * tolerance) break;
    }
    if (!isfinite(px) || !isfinite(py)) return 0;
    *out_x = px;
    *out_y = py;
    return 1;
}
