/* quadtex from C: a 2x2 RGBA8 texture with its mips, sampled nearest and
 * bilinear, gathered, fetched and LOD-queried through the planar calls,
 * then read by SASS TLD4, PTX tex and D3D ld2dms text. Each result is
 * checked against the value Vulkan's rules give; the program prints what
 * it read and exits 1 on the first difference.
 *
 * Build (from the repository root, after `cargo build --release`):
 *   cc -std=c11 -Icrates/quadtex-capi/include crates/quadtex-capi/examples/c/sample.c \
 *      target/release/libquadtex_capi.a -lpthread -ldl -lm -o sample
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quadtex.h"

static int failures = 0;

/* Stops on an error status, printing its name and message. */
static void ok(QtxStatus s, const char *what) {
    if (s != QTX_OK) {
        fprintf(stderr, "%s: %s: %s\n", what, qtx_status_name(s), qtx_last_error());
        exit(2);
    }
}

/* Prints `name` and four lanes, and counts a difference from `want`. */
static void expect4(const char *name, const float got[4], const float want[4]) {
    printf("%s", name);
    for (int i = 0; i < 4; i++) {
        printf(" %.9g", got[i]);
        if (got[i] != want[i]) {
            failures++;
        }
    }
    printf("%s\n", memcmp(got, want, sizeof(float[4])) == 0 ? "" : "  MISMATCH");
}

static float from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

int main(void) {
    /* Level 0: red, green / blue, white (row y = 0 first). */
    const uint8_t level0[16] = {
        255, 0, 0, 255,   0, 255, 0, 255,
        0, 0, 255, 255,   255, 255, 255, 255,
    };
    QtxTextureDesc desc = {
        .kind = QTX_KIND_2D,
        .format = "R8G8B8A8_UNORM",
        .width = 2, .height = 2, .depth = 1,
        .layers = 1, .levels = 2, .samples = 1,
        .layout = QTX_LAYOUT_TILED,
        .no_mipmap = false,
    };
    QtxTexture *tex = NULL;
    ok(qtx_texture_create(&desc, NULL, 0, &tex), "qtx_texture_create");
    ok(qtx_texture_write(tex, 0, 0, 0, level0, sizeof level0), "qtx_texture_write");
    ok(qtx_texture_generate_mips(tex), "qtx_texture_generate_mips");

    /* A wrong size is an error with a message, not a crash. */
    QtxTexture *bad = NULL;
    QtxStatus s = qtx_texture_create(&desc, level0, 3, &bad);
    printf("wrong size: %s: %s\n", qtx_status_name(s), qtx_last_error());
    if (s != QTX_ERROR_WRONG_SIZE || bad != NULL) failures++;

    QtxViewDesc vd;
    ok(qtx_view_desc_default(tex, &vd), "qtx_view_desc_default");
    QtxView *view = NULL;
    ok(qtx_view_create(tex, &vd, &view), "qtx_view_create");
    qtx_texture_destroy(tex); /* the view keeps the texels */

    QtxSamplerDesc nearest;
    ok(qtx_sampler_desc_default(&nearest), "qtx_sampler_desc_default");
    QtxSamplerDesc linear = nearest;
    linear.mag_filter = linear.min_filter = QTX_FILTER_LINEAR;
    for (int i = 0; i < 3; i++) linear.address[i] = QTX_ADDRESS_CLAMP_TO_EDGE;

    QtxSampleArgs args = { .profile = QTX_PROFILE_VULKAN, .lod_mode = QTX_LOD_IMPLICIT };
    float r[4], g[4], b[4], a[4];
    QtxOutput out = { r, g, b, a };

    /* One quad on the four texel centres: lambda 0, each lane its texel. */
    const float s_centres[4] = { 0.25f, 0.75f, 0.25f, 0.75f };
    const float t_centres[4] = { 0.25f, 0.25f, 0.75f, 0.75f };
    QtxCoords centres = { .s = s_centres, .t = t_centres };
    ok(qtx_sample(view, &nearest, &args, &centres, 1, &out), "qtx_sample nearest");
    expect4("nearest.r", r, (const float[4]){ 1, 0, 0, 1 });
    expect4("nearest.g", g, (const float[4]){ 0, 1, 0, 1 });
    expect4("nearest.b", b, (const float[4]){ 0, 0, 1, 1 });

    /* Every lane at the centre, zero derivatives: magnified, bilinear, the
     * four texels weighted 1/4 each. */
    const float half[4] = { 0.5f, 0.5f, 0.5f, 0.5f };
    QtxCoords middle = { .s = half, .t = half };
    ok(qtx_sample(view, &linear, &args, &middle, 1, &out), "qtx_sample bilinear");
    expect4("bilinear.r", r, (const float[4]){ 0.5f, 0.5f, 0.5f, 0.5f });
    expect4("bilinear.a", a, (const float[4]){ 1, 1, 1, 1 });

    /* textureGather component R at the centre: result k of every lane in
     * plane k, the footprint's T(i0,j1), T(i1,j1), T(i1,j0), T(i0,j0) =
     * blue, white, green, red. */
    QtxGatherArgs gargs = { .profile = QTX_PROFILE_VULKAN, .component = 0 };
    ok(qtx_gather(view, &linear, &gargs, &middle, 1, &out), "qtx_gather");
    const float lane0[4] = { r[0], g[0], b[0], a[0] };
    expect4("gather.lane0", lane0, (const float[4]){ 0, 1, 0, 1 });
    expect4("gather.g", g, (const float[4]){ 1, 1, 1, 1 });

    /* texelFetch of each texel: the UNORM values' float bits. */
    const int32_t fx[4] = { 0, 1, 0, 1 }, fy[4] = { 0, 0, 1, 1 };
    uint32_t wr[4], wg[4], wb[4], wa[4];
    uint8_t resident[4];
    QtxFetchCoords fc = { .x = fx, .y = fy };
    QtxFetchOutput fo = { wr, wg, wb, wa, resident };
    ok(qtx_fetch(view, &fc, 1, &fo), "qtx_fetch");
    float fr[4], fg[4];
    for (int i = 0; i < 4; i++) {
        fr[i] = from_bits(wr[i]);
        fg[i] = from_bits(wg[i]);
        if (!resident[i]) failures++;
    }
    expect4("fetch.r", fr, (const float[4]){ 1, 0, 0, 1 });
    expect4("fetch.g", fg, (const float[4]){ 0, 1, 0, 1 });

    /* One texel of level 1 per 2 texels of level 0: coordinates one
     * texture width apart per pixel give lambda = log2(2) = 1, and nearest
     * mipmapping accesses level 1. */
    const float s_wide[4] = { 0.0f, 1.0f, 0.0f, 1.0f };
    const float t_wide[4] = { 0.0f, 0.0f, 1.0f, 1.0f };
    QtxCoords wide = { .s = s_wide, .t = t_wide };
    float accessed[4], lambda[4];
    ok(qtx_query_lod(view, &nearest, &args, &wide, 1, accessed, lambda), "qtx_query_lod");
    expect4("lod.accessed", accessed, (const float[4]){ 1, 1, 1, 1 });
    expect4("lod.lambda", lambda, (const float[4]){ 1, 1, 1, 1 });
    /* ... and there the texel is level 1's one texel, (2x2 sum + 2) / 4:
     * red (255 + 0 + 0 + 255 + 2) / 4 = 128 -> 128/255. */
    ok(qtx_sample(view, &nearest, &args, &wide, 1, &out), "qtx_sample level 1");
    const float l1 = 128.0f / 255.0f;
    expect4("level1.r", r, (const float[4]){ l1, l1, l1, l1 });

    /* A plane the view needs and did not get is an error. */
    QtxCoords no_t = { .s = half };
    s = qtx_sample(view, &nearest, &args, &no_t, 1, &out);
    printf("missing t: %s: %s\n", qtx_status_name(s), qtx_last_error());
    if (s != QTX_ERROR_INVALID_ARGUMENT) failures++;

    /* SASS TLD4.R through the header pool: constant-bank word 5 holds the
     * handle of header 0 / sampler 0. */
    QtxPools *pools = NULL;
    ok(qtx_pools_create(&pools), "qtx_pools_create");
    ok(qtx_pools_set_header(pools, 0, view), "qtx_pools_set_header");
    ok(qtx_pools_set_sampler(pools, 0, &linear), "qtx_pools_set_sampler");
    uint32_t bank[8] = { 0 };
    ok(qtx_handle(0, 0, &bank[5]), "qtx_handle");
    ok(qtx_pools_set_const_bank(pools, bank, 8), "qtx_pools_set_const_bank");
    static QtxSassRegs sregs; /* 4 KiB: not on the stack */
    for (int lane = 0; lane < 4; lane++) {
        memcpy(&sregs.r[lane][0], &half[0], 4);
        memcpy(&sregs.r[lane][1], &half[0], 4);
    }
    ok(qtx_sass_execute(pools, "TLD4.R R4, R0, 5, 2D, 0xf;", &sregs, 0xf, 0), "qtx_sass_execute");
    float tld4[4];
    for (int k = 0; k < 4; k++) tld4[k] = from_bits(sregs.r[0][4 + k]);
    expect4("sass.tld4", tld4, (const float[4]){ 0, 1, 0, 1 });
    s = qtx_sass_execute(pools, "TLD4.Q R4, R0, 5, 2D;", &sregs, 0xf, 0);
    printf("bad sass: %s: %s\n", qtx_status_name(s), qtx_last_error());
    if (s != QTX_ERROR_INSTRUCTION) failures++;
    qtx_pools_destroy(pools);

    /* PTX tex in unified mode: .texref tex1 is header 1 and sampler 1. */
    QtxPools *ppools = NULL;
    QtxPtxSymbols *syms = NULL;
    QtxPtxRegs *pregs = NULL;
    ok(qtx_pools_create_ptx(QTX_PTX_UNIFIED, &ppools), "qtx_pools_create_ptx");
    ok(qtx_pools_set_header(ppools, 1, view), "qtx_pools_set_header");
    ok(qtx_pools_set_sampler(ppools, 1, &nearest), "qtx_pools_set_sampler");
    ok(qtx_ptx_symbols_create(&syms), "qtx_ptx_symbols_create");
    ok(qtx_ptx_symbols_add(syms, QTX_PTX_TEXREF, "tex1", 1), "qtx_ptx_symbols_add");
    ok(qtx_ptx_regs_create(&pregs), "qtx_ptx_regs_create");
    uint32_t words[4];
    memcpy(words, s_centres, sizeof words);
    ok(qtx_ptx_regs_set(pregs, "%f1", words), "qtx_ptx_regs_set");
    memcpy(words, t_centres, sizeof words);
    ok(qtx_ptx_regs_set(pregs, "%f2", words), "qtx_ptx_regs_set");
    ok(qtx_ptx_execute(ppools, syms, QTX_PTX_UNIFIED,
                       "tex.2d.v4.f32.f32 {%f10,%f11,%f12,%f13}, [tex1, {%f1,%f2}];", pregs),
       "qtx_ptx_execute");
    ok(qtx_ptx_regs_get(pregs, "%f11", words), "qtx_ptx_regs_get");
    float green[4];
    for (int i = 0; i < 4; i++) green[i] = from_bits(words[i]);
    expect4("ptx.tex.g", green, (const float[4]){ 0, 1, 0, 1 });
    qtx_ptx_regs_destroy(pregs);
    qtx_ptx_symbols_destroy(syms);
    qtx_pools_destroy(ppools);

    /* D3D ld2dms on a 2x2, 4-sample R32_SFLOAT texture whose sample s of
     * texel (x, y) holds 10s + 2y + x: lane l reads texel (l % 2, l / 2),
     * sample 3. */
    float ms[16];
    for (int smp = 0; smp < 4; smp++)
        for (int i = 0; i < 4; i++) ms[4 * smp + i] = (float)(10 * smp + i);
    QtxTextureDesc msd = {
        .kind = QTX_KIND_2D_MS, .format = "VK_FORMAT_R32_SFLOAT",
        .width = 2, .height = 2, .depth = 1, .layers = 1, .levels = 1, .samples = 4,
        .layout = QTX_LAYOUT_LINEAR,
    };
    QtxTexture *mstex = NULL;
    ok(qtx_texture_create(&msd, (const uint8_t *)ms, sizeof ms, &mstex), "qtx_texture_create ms");
    QtxViewDesc msvd;
    ok(qtx_view_desc_default(mstex, &msvd), "qtx_view_desc_default ms");
    QtxView *msview = NULL;
    ok(qtx_view_create(mstex, &msvd, &msview), "qtx_view_create ms");
    qtx_texture_destroy(mstex);
    QtxD3dRegs *dregs = NULL;
    ok(qtx_d3d_regs_create(&dregs), "qtx_d3d_regs_create");
    uint32_t addr[16] = { 0, 0, 0, 0,  1, 0, 0, 0,  0, 1, 0, 0,  1, 1, 0, 0 };
    uint32_t sample[16] = { 3, 0, 0, 0,  3, 0, 0, 0,  3, 0, 0, 0,  3, 0, 0, 0 };
    ok(qtx_d3d_regs_set(dregs, "r1", addr), "qtx_d3d_regs_set");
    ok(qtx_d3d_regs_set(dregs, "r2", sample), "qtx_d3d_regs_set");
    const QtxView *resources[1] = { msview };
    ok(qtx_d3d_execute(resources, 1, "ld2dms r0.xyzw, r1.xyzw, t0.xyzw, r2.x", dregs),
       "qtx_d3d_execute");
    uint32_t r0[16];
    ok(qtx_d3d_regs_get(dregs, "r0", r0), "qtx_d3d_regs_get");
    float x[4], w[4];
    for (int l = 0; l < 4; l++) {
        x[l] = from_bits(r0[4 * l]);
        w[l] = from_bits(r0[4 * l + 3]);
    }
    /* R32_SFLOAT has no G, B, A: they read 0, 0, 1. */
    expect4("d3d.ld2dms.x", x, (const float[4]){ 30, 31, 32, 33 });
    expect4("d3d.ld2dms.w", w, (const float[4]){ 1, 1, 1, 1 });
    qtx_d3d_regs_destroy(dregs);
    qtx_view_destroy(msview);

    qtx_view_destroy(view);
    printf("%s\n", failures == 0 ? "all values as expected" : "MISMATCHES");
    return failures == 0 ? 0 : 1;
}
