/* dy-keys-chart.h: the key-distribution view's histogram, drawn with cairo in a
 * GtkDrawingArea: a horizontal bar per bucket of items per partition (1, 2-3, 4-7…: a log
 * scale), labelled with its range and its count of partitions, over an axis of partitions; in
 * the theme's colours, so that it reads in light and dark mode alike. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* An empty chart (it draws nothing until it has buckets). */
GtkWidget *dy_keys_chart_new (void);
/* Shows N_BUCKETS counts (bucket b: partitions of 2^b .. 2^(b+1)-1 items; copied), and sizes
 * the area to fit them. */
void dy_keys_chart_set_buckets (GtkWidget *chart, const guint64 *buckets, guint n_buckets);

G_END_DECLS
