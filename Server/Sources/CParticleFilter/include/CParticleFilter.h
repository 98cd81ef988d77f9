#ifndef CPARTICLEFILTER_H
#define CPARTICLEFILTER_H

#include <stdint.h>

/// The benchmarks' reference particle filter: one update of a device's cloud written in plain C, so that
/// `indoor-bench positioning` can state the Swift `ParticleFilter` update's speed as a ratio to it measured in the
/// same run. It does the same work as `ParticleFilter.update` on a map with one floor and no floor plan: the same
/// moves (an Ornstein–Uhlenbeck velocity per axis drawn from the same table of normal deviates with the same
/// SplitMix64 generator, capped speed, the grid's box), each particle looked up at the same lattice point, the same
/// likelihood per lattice point met (Student-t terms about the map's mean with the receiver offset estimated per
/// point under the cloud's prior), the same weights, offset update and systematic resampling. Written as a C
/// programmer would: scalar loops, a table of slots over the whole lattice.

/// The likelihood's tables on the lattice the particles are weighed at, and the motion's settings.
typedef struct {
    /// Node-major planes, `cell_count` entries per node: mean RSSI (dBm), 1 / variance (1/dB²), and
    /// ½ ln variance + missing weight × ln P(not heard) (nats).
    const double *mean;
    const float *precision;
    const float *constant;
    /// Per lattice cell: missing weight × Σ ln P(not heard) (nats).
    const double *missing;
    int cell_count;
    /// Lattice points per row, rows.
    int lattice_columns;
    int lattice_rows;
    /// The grid's box (m) and the lattice's spacing (m: the grid's spacing times the lattice's stride).
    double minimum_x, minimum_y, maximum_x, maximum_y;
    double lattice_spacing;
    /// 1 / ν and (ν + 1) / 2 of the Student-t.
    double inverse_nu;
    double tail;
    /// The posterior's temperature times the filter's evidence weight.
    double scale;
    /// The receiver offset's widest variance (the posterior's offset σ², dB²) and its drift (dB/√s).
    double widest_offset_variance;
    double offset_drift;
    /// Motion: typical speed (m/s), heading time (s), top speed (m/s); seconds per step (the readings' age cap is
    /// two steps); the effective-size share below which the cloud is resampled.
    double speed;
    double turn_time;
    double maximum_speed;
    double step;
    double resample_below;
    /// 4096 standard normal deviates, the table the motion draws from.
    const double *normals;
} indoor_pf_model;

/// One device's cloud: `count` particles' positions (m), velocities (m/s) and weights (summing to 1), the moment it
/// describes (s), the receiver offset (dB) and its variance (dB²), and the state of its SplitMix64 generator.
typedef struct {
    double *x, *y, *vx, *vy, *weight;
    int count;
    double time;
    double offset;
    double offset_variance;
    uint64_t random_state;
} indoor_pf_cloud;

/// Scratch memory for updates: a slot per lattice cell and per-particle buffers, for clouds of up to `particles`.
typedef struct indoor_pf_workspace indoor_pf_workspace;

/// Scratch for `model`'s lattice and clouds of at most `particles` particles; NULL when out of memory.
indoor_pf_workspace *indoor_pf_workspace_create(const indoor_pf_model *model, int particles);
void indoor_pf_workspace_destroy(indoor_pf_workspace *workspace);

/// Moves `cloud` on to `time` (s) and weighs it by the `heard` readings: `columns` (the nodes' map columns) and
/// `values` (RSSI, dBm), heard at `last_heard` (s) on average each; resamples when the effective size falls below the
/// model's share. Returns 0, or -1 when the cloud is larger than the workspace.
int indoor_pf_update(const indoor_pf_model *model, indoor_pf_workspace *workspace, indoor_pf_cloud *cloud,
                     const int *columns, const double *values, const double *last_heard, int heard, double time);

#endif
