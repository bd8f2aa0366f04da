// quadtex from C++: the C header as is (it has `extern "C"` guards), with
// std::unique_ptr owning the handles. A 4x4 R32_SFLOAT texture whose
// texel (x, y) holds 10y + x, sampled bilinearly at texel corners: each
// result is the mean of the four texels around the corner. Exits 1 on a
// difference.
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "quadtex.h"

namespace {

void check(QtxStatus s, const char *what) {
    if (s != QTX_OK) {
        throw std::runtime_error(std::string(what) + ": " + qtx_status_name(s) + ": " +
                                 qtx_last_error());
    }
}

struct TextureDeleter {
    void operator()(QtxTexture *t) const { qtx_texture_destroy(t); }
};
struct ViewDeleter {
    void operator()(QtxView *v) const { qtx_view_destroy(v); }
};

}  // namespace

int main() {
    try {
        std::vector<float> texels(16);
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 4; x++) texels[4 * y + x] = float(10 * y + x);
        QtxTextureDesc desc{};
        desc.kind = QTX_KIND_2D;
        desc.format = "R32_SFLOAT";
        desc.width = desc.height = 4;
        desc.depth = desc.layers = desc.levels = desc.samples = 1;
        desc.layout = QTX_LAYOUT_TILED;
        QtxTexture *raw = nullptr;
        check(qtx_texture_create(&desc, reinterpret_cast<const uint8_t *>(texels.data()),
                                 texels.size() * sizeof(float), &raw),
              "qtx_texture_create");
        std::unique_ptr<QtxTexture, TextureDeleter> tex(raw);
        QtxViewDesc vd{};
        check(qtx_view_desc_default(tex.get(), &vd), "qtx_view_desc_default");
        QtxView *vraw = nullptr;
        check(qtx_view_create(tex.get(), &vd, &vraw), "qtx_view_create");
        std::unique_ptr<QtxView, ViewDeleter> view(vraw);

        QtxSamplerDesc smp{};
        check(qtx_sampler_desc_default(&smp), "qtx_sampler_desc_default");
        smp.mag_filter = smp.min_filter = QTX_FILTER_LINEAR;

        // Two quads: lanes on the corners (1, 1), (2, 1), (1, 2), (2, 2)
        // texels, then (2, 2), (3, 2), (2, 3), (3, 3).
        const float s[8] = {0.25f, 0.5f, 0.25f, 0.5f, 0.5f, 0.75f, 0.5f, 0.75f};
        const float t[8] = {0.25f, 0.25f, 0.5f, 0.5f, 0.5f, 0.5f, 0.75f, 0.75f};
        std::vector<float> r(8), g(8), b(8), a(8);
        QtxCoords coords{};
        coords.s = s;
        coords.t = t;
        QtxOutput out{r.data(), g.data(), b.data(), a.data()};
        QtxSampleArgs args{};
        args.profile = QTX_PROFILE_VULKAN;
        args.lod_mode = QTX_LOD_BASE;
        check(qtx_sample(view.get(), &smp, &args, &coords, 2, &out), "qtx_sample");

        int failures = 0;
        std::printf("cpp.bilinear.r");
        for (int i = 0; i < 8; i++) {
            // Corner (cx, cy) in texels: texels cx-1, cx and cy-1, cy.
            float cx = s[i] * 4.0f, cy = t[i] * 4.0f;
            float want = 10.0f * (cy - 0.5f) + (cx - 0.5f);
            std::printf(" %.9g", r[i]);
            if (r[i] != want || a[i] != 1.0f) failures++;
        }
        std::printf("\n%s\n", failures == 0 ? "all values as expected" : "MISMATCHES");
        return failures == 0 ? 0 : 1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
}
