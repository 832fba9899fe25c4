/*
 * The out-of-core plan (core/ps_ooc.h): in core when the grid fits or no
 * budget is set; otherwise the fewest slabs along k whose largest slab
 * (ghosts included) fits, along j when no k slab does; a budget below the
 * thinnest slab refused with the smallest budget that works, and that budget
 * accepted. Footprints are checked against their definition (3 copies).
 */
#include "config.h"
#include "pstencil.h"
#include "ps_ooc.h"
#include "../ps_test.h"

#include <string.h>

int main(void)
{
    const ps_grid g = {16, 9, 11}, flat = {2, 40, 30};
    const uint64_t plane = 9 * 11 * 4; /* float32 bytes of one k level */
    ps_ooc_plan p;
    int st;

    EXPECT(ps_ooc_footprint(g, PS_FLOAT32) == 3 * 16 * plane);
    EXPECT(ps_ooc_footprint(g, PS_FLOAT64) == 2 * ps_ooc_footprint(g, PS_FLOAT32));

    /* no budget, or a budget the grid fits: in core */
    EXPECT(ps_ooc_plan_make(g, PS_FLOAT32, 1, 0, &p) == PS_OK && p.slabs == 1);
    EXPECT(ps_ooc_plan_make(g, PS_FLOAT32, 1, 3 * 16 * plane, &p) == PS_OK && p.slabs == 1);

    /* one byte short: slabs along k, the fewest whose thickest fits */
    EXPECT(ps_ooc_plan_make(g, PS_FLOAT32, 1, 3 * 16 * plane - 1, &p) == PS_OK);
    CHECK(p.axis == 0 && p.slabs == 2, "16 levels, halo 1, budget just under: %d slabs along "
          "axis %d (expected 2 along k)", p.slabs, p.axis);
    EXPECT(p.slab_bytes <= p.budget && p.slab_bytes == 3 * plane * 9);

    /* room for 8 stored levels with a halo of 3: slabs stored equally thick,
     * inner ones own 2 levels, the first and last (one inner face) 5: 5 + 2 + 2
     * + 2 + 5 = 16 levels in 5 slabs (an even split would need 8 of 2) */
    EXPECT(ps_ooc_plan_make(g, PS_FLOAT32, 3, 3 * plane * 8, &p) == PS_OK);
    CHECK(p.axis == 0 && p.slabs == 5 && p.slab_bytes == 3 * plane * 8,
          "halo 3, 8 levels of room: %d slabs of %llu bytes (expected 5 of 8 levels)",
          p.slabs, (unsigned long long)p.slab_bytes);

    /* too small: refused, the smallest budget named, and that one works */
    st = ps_ooc_plan_make(g, PS_FLOAT32, 2, 3 * plane * 4, &p);
    EXPECT(st == PS_ENOMEM);
    CHECK(strstr(ps_error_detail(), "smallest budget that works") != NULL, "message: %s",
          ps_error_detail());
    CHECK(p.min_budget == 3 * plane * 5, "smallest budget %llu (expected the thinnest k "
          "slab: 1 level + 2 x 2 ghosts)", (unsigned long long)p.min_budget);
    EXPECT(ps_ooc_plan_make(g, PS_FLOAT32, 2, p.min_budget, &p) == PS_OK && p.slabs > 1);
    EXPECT(ps_ooc_plan_make(g, PS_FLOAT32, 2, p.min_budget - 1, &p) == PS_ENOMEM);

    /* two levels cannot be split usefully: the plan goes along j */
    EXPECT(ps_ooc_plan_make(flat, PS_FLOAT32, 1, 3 * 4 * 2 * 30 * 12, &p) == PS_OK);
    CHECK(p.axis == 1 && p.slabs > 1, "2x40x30: %d slabs along axis %d (expected j)", p.slabs,
          p.axis);
    /* the cost-chosen plan: fits the budget, keeps a given ghost depth, chooses one
     * (at least the radius) when none is given, slabs along the long axis of a grid
     * with few levels, and names the same smallest budget as ghost = radius */
    {
        const ps_grid deep = {4, 200, 10};
        const uint64_t dfoot = ps_ooc_footprint(deep, PS_FLOAT32);
        ps_ooc_plan q;
        EXPECT(ps_ooc_plan_auto(g, PS_FLOAT32, 1, 3, 20, 3 * plane * 8, &p) == PS_OK);
        CHECK(p.slabs > 1 && p.ghost == 3 && p.slab_bytes <= p.budget,
              "auto, halo 3: %d slabs, ghost %u, %llu bytes", p.slabs, p.ghost,
              (unsigned long long)p.slab_bytes);
        EXPECT(ps_ooc_plan_auto(g, PS_FLOAT32, 1, 0, 20, 3 * plane * 8, &p) == PS_OK);
        CHECK(p.slabs > 1 && p.ghost >= 1 && p.slab_bytes <= p.budget,
              "auto: %d slabs, ghost %u", p.slabs, p.ghost);
        EXPECT(ps_ooc_plan_auto(deep, PS_FLOAT32, 1, 0, 20, dfoot / 4, &p) == PS_OK);
        CHECK(p.axis == 1 && p.slabs > 1 && p.slab_bytes <= p.budget,
              "4x200x10 at 1/4: %d slabs along axis %d (expected j)", p.slabs, p.axis);
        EXPECT(ps_ooc_plan_auto(g, PS_FLOAT32, 1, 0, 20, 100, &p) == PS_ENOMEM);
        EXPECT(ps_ooc_plan_make(g, PS_FLOAT32, 1, 100, &q) == PS_ENOMEM);
        EXPECT(p.min_budget == q.min_budget);
        EXPECT(ps_ooc_plan_auto(g, PS_FLOAT32, 1, 0, 20, p.min_budget, &p) == PS_OK &&
               p.slabs > 1);
        EXPECT(ps_ooc_plan_auto(g, PS_FLOAT32, 1, 0, 20, 0, &p) == PS_OK && p.slabs == 1);
    }
    return ps_test_finish("test_ooc_plan");
}
