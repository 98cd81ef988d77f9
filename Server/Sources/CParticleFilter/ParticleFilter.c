#include "CParticleFilter.h"

#include <math.h>
#include <stdlib.h>

struct indoor_pf_workspace {
    int particles;
    int cell_count;
    /// Per lattice cell: its slot among the cells met by the cloud, or -1.
    int *slot;
    /// Per particle: its lattice cell, then the slot of that cell.
    int *cell_of;
    /// The cells met, and per slot the log-likelihood (then the weight factor), offset and its variance.
    int *met;
    double *factor;
    double *offset;
    double *variance;
    /// Motion noise (two deviates per particle), resampling picks and the gathered values.
    double *noise;
    int *pick;
    double *gathered;
};

static uint64_t next(uint64_t *state) {
    *state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double unit(uint64_t *state) { return (double)(next(state) >> 11) * 0x1.0p-53; }

indoor_pf_workspace *indoor_pf_workspace_create(const indoor_pf_model *model, int particles) {
    if (particles < 1 || model->cell_count < 1) return NULL;
    indoor_pf_workspace *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->particles = particles;
    w->cell_count = model->cell_count;
    w->slot = malloc(sizeof(int) * (size_t)model->cell_count);
    w->cell_of = malloc(sizeof(int) * (size_t)particles);
    w->met = malloc(sizeof(int) * (size_t)particles);
    w->factor = malloc(sizeof(double) * (size_t)particles);
    w->offset = malloc(sizeof(double) * (size_t)particles);
    w->variance = malloc(sizeof(double) * (size_t)particles);
    w->noise = malloc(sizeof(double) * 2 * (size_t)particles);
    w->pick = malloc(sizeof(int) * (size_t)particles);
    w->gathered = malloc(sizeof(double) * (size_t)particles);
    if (!w->slot || !w->cell_of || !w->met || !w->factor || !w->offset || !w->variance || !w->noise || !w->pick ||
        !w->gathered) {
        indoor_pf_workspace_destroy(w);
        return NULL;
    }
    for (int c = 0; c < model->cell_count; c++) w->slot[c] = -1;
    return w;
}

void indoor_pf_workspace_destroy(indoor_pf_workspace *w) {
    if (!w) return;
    free(w->slot);
    free(w->cell_of);
    free(w->met);
    free(w->factor);
    free(w->offset);
    free(w->variance);
    free(w->noise);
    free(w->pick);
    free(w->gathered);
    free(w);
}

/// The offset variance kept within (1e-6 × widest, widest]; 0 when the offset has no prior spread.
static double bounded_variance(const indoor_pf_model *m, double variance) {
    double widest = m->widest_offset_variance;
    if (!(widest > 0)) return 0;
    if (!isfinite(variance)) return widest;
    if (variance < 1e-6 * widest) variance = 1e-6 * widest;
    return variance > widest ? widest : variance;
}

/// The lattice index nearest `value` (ties to even) within 0…last; NaN gives 0.
static int nearest(double value, int last) {
    if (value != value) return 0;
    double bounded = value < 0 ? 0 : (value > last ? last : value);
    return (int)nearbyint(bounded);
}

static void gather(double *values, const int *pick, double *scratch, int count) {
    for (int i = 0; i < count; i++) scratch[i] = values[pick[i]];
    for (int i = 0; i < count; i++) values[i] = scratch[i];
}

int indoor_pf_update(const indoor_pf_model *m, indoor_pf_workspace *w, indoor_pf_cloud *cloud, const int *columns,
                     const double *values, const double *last_heard, int heard, double time) {
    int n = cloud->count;
    if (n > w->particles) return -1;
    if (n < 1) return 0;
    double *x = cloud->x, *y = cloud->y, *vx = cloud->vx, *vy = cloud->vy, *weight = cloud->weight;

    // The readings' mean age (s), at most two steps.
    double now = time > cloud->time ? time : cloud->time;
    double age_sum = 0;
    int aged = 0;
    for (int k = 0; k < heard; k++) {
        if (!isfinite(last_heard[k])) continue;
        double a = now - last_heard[k];
        age_sum += a > 0 ? a : 0;
        aged++;
    }
    double age = aged > 0 ? age_sum / aged : 0;
    if (!isfinite(age)) age = 0;
    if (age > 2 * m->step) age = 2 * m->step;

    double inverse_spacing = 1 / m->lattice_spacing;
    int last_column = m->lattice_columns - 1;
    int last_row = m->lattice_rows - 1;
    double elapsed = time - cloud->time;
    if (elapsed > 0) {
        // Motion noise: five 12-bit table indices per 64 random bits.
        int draws = 2 * n;
        int i = 0;
        while (i + 5 <= draws) {
            uint64_t bits = next(&cloud->random_state);
            for (int j = 0; j < 5; j++) w->noise[i + j] = m->normals[(bits >> (12 * j)) & 0xFFF];
            i += 5;
        }
        if (i < draws) {
            uint64_t bits = next(&cloud->random_state);
            for (; i < draws; i++, bits >>= 12) w->noise[i] = m->normals[bits & 0xFFF];
        }
        double keep = exp(-elapsed / m->turn_time);
        double kick = m->speed * sqrt(1 - keep * keep);
        double top = m->maximum_speed;
        for (int p = 0; p < n; p++) {
            double u = keep * vx[p] + kick * w->noise[2 * p];
            double v = keep * vy[p] + kick * w->noise[2 * p + 1];
            double square = u * u + v * v;
            double factor = square > top * top ? top / sqrt(square) : 1;
            u *= factor;
            v *= factor;
            double px = x[p] + u * elapsed;
            double py = y[p] + v * elapsed;
            if (px < m->minimum_x || px > m->maximum_x) {
                px = px < m->minimum_x ? m->minimum_x : m->maximum_x;
                u = -u;
            }
            if (py < m->minimum_y || py > m->maximum_y) {
                py = py < m->minimum_y ? m->minimum_y : m->maximum_y;
                v = -v;
            }
            x[p] = px;
            y[p] = py;
            vx[p] = u;
            vy[p] = v;
        }
        cloud->time = time;
        cloud->offset_variance =
            bounded_variance(m, cloud->offset_variance + m->offset_drift * m->offset_drift * elapsed);
    }

    double effective = 0;
    int weighed = 0;
    if (heard > 0) {
        // Each particle's lattice point where it was `age` seconds ago, and the points met.
        int met = 0;
        for (int p = 0; p < n; p++) {
            int column = nearest((x[p] - age * vx[p] - m->minimum_x) * inverse_spacing, last_column);
            int row = nearest((y[p] - age * vy[p] - m->minimum_y) * inverse_spacing, last_row);
            int cell = row * m->lattice_columns + column;
            if (w->slot[cell] < 0) {
                w->slot[cell] = met;
                w->met[met++] = cell;
            }
            w->cell_of[p] = w->slot[cell];
        }
        for (int s = 0; s < met; s++) w->slot[w->met[s]] = -1;

        // The likelihood at each point met, with the receiver offset estimated there.
        double prior_precision = cloud->offset_variance > 0 ? 1 / cloud->offset_variance : 0;
        double prior_mean = cloud->offset;
        double peak = -INFINITY;
        for (int s = 0; s < met; s++) {
            int cell = w->met[s];
            double precision_sum = prior_precision;
            double weighted = prior_precision * prior_mean;
            double constant = 0;
            for (int k = 0; k < heard; k++) {
                int index = columns[k] * m->cell_count + cell;
                double precision = m->precision[index];
                precision_sum += precision;
                weighted += precision * (values[k] - m->mean[index]);
                constant += m->constant[index];
            }
            double offset = prior_precision > 0 ? weighted / precision_sum : prior_mean;
            double product = 1;
            for (int k = 0; k < heard; k++) {
                int index = columns[k] * m->cell_count + cell;
                double e = values[k] - m->mean[index] - offset;
                product *= 1 + e * e * (double)m->precision[index] * m->inverse_nu;
            }
            double fit = log(product);
            if (fit == INFINITY) {
                fit = 0;
                for (int k = 0; k < heard; k++) {
                    int index = columns[k] * m->cell_count + cell;
                    double e = values[k] - m->mean[index] - offset;
                    fit += log1p(e * e * (double)m->precision[index] * m->inverse_nu);
                }
            }
            double shift = offset - prior_mean;
            w->offset[s] = offset;
            w->variance[s] = prior_precision > 0 ? 1 / precision_sum : 0;
            double logl = m->scale * (-0.5 * shift * shift * prior_precision + m->missing[cell] - m->tail * fit -
                                      constant);
            w->factor[s] = logl;
            if (logl > peak) peak = logl;
        }
        if (isfinite(peak)) {
            for (int s = 0; s < met; s++) w->factor[s] = exp(w->factor[s] - peak);
            double total = 0, offset_sum = 0, moment_sum = 0;
            for (int p = 0; p < n; p++) {
                int s = w->cell_of[p];
                double wp = weight[p] * w->factor[s];
                weight[p] = wp;
                total += wp;
                offset_sum += wp * w->offset[s];
                moment_sum += wp * (w->variance[s] + w->offset[s] * w->offset[s]);
            }
            if (total > 0 && isfinite(total)) {
                double inverse_total = 1 / total;
                double squares = 0;
                for (int p = 0; p < n; p++) {
                    weight[p] *= inverse_total;
                    squares += weight[p] * weight[p];
                }
                if (squares > 0) {
                    double offset = offset_sum * inverse_total;
                    double variance = moment_sum * inverse_total - offset * offset;
                    cloud->offset = offset;
                    cloud->offset_variance = bounded_variance(m, variance > 0 ? variance : 0);
                    effective = 1 / squares;
                    weighed = 1;
                }
            } else {
                for (int p = 0; p < n; p++) weight[p] = 1.0 / n;
            }
        }
    }
    if (!weighed) {
        double squares = 0;
        for (int p = 0; p < n; p++) squares += weight[p] * weight[p];
        effective = squares > 0 ? 1 / squares : 0;
    }

    // Systematic resampling when the effective size is low.
    if (effective < m->resample_below * n) {
        double shift = 1 - unit(&cloud->random_state);
        double scale = n;
        for (int i = 0; i < n; i++) w->pick[i] = 0;
        double cumulative = 0;
        for (int j = 0; j < n - 1; j++) {
            cumulative += weight[j];
            double taken = cumulative * scale + shift;
            if (!(taken < scale)) break;
            w->pick[(int)taken] = j + 1;
        }
        int largest = 0;
        for (int i = 0; i < n; i++) {
            if (w->pick[i] > largest) largest = w->pick[i];
            w->pick[i] = largest;
        }
        gather(x, w->pick, w->gathered, n);
        gather(y, w->pick, w->gathered, n);
        gather(vx, w->pick, w->gathered, n);
        gather(vy, w->pick, w->gathered, n);
        for (int i = 0; i < n; i++) weight[i] = 1.0 / n;
    }
    return 0;
}
