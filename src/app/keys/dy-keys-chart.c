/* dy-keys-chart.c: the histogram of items per partition (see dy-keys-chart.h). */
#define G_LOG_DOMAIN "dynoscope-keys-view"

#include <glib/gi18n.h>
#include <math.h>

#include "app/keys/dy-keys-chart.h"
#include "app/common/dy-format.h"
#include "app/keys/dy-keys-rows.h"
#include "model/keys.h"

#define PAD 8
#define GAP 10

typedef struct {
  guint64 *buckets;
  guint n_buckets;
} Chart;

static void
chart_free (Chart *chart)
{
  g_free (chart->buckets);
  g_free (chart);
}

static Chart *
chart_get (GtkWidget *area)
{
  return g_object_get_data (G_OBJECT (area), "dy-keys-chart");
}

/* A step of 1, 2 or 5 times a power of ten that gives at most about five ticks up to MOST. */
static guint64
tick_step (guint64 most)
{
  guint64 step = 1;

  while (step * 5 < most)
    {
      if (step * 2 * 5 >= most)
        return step * 2;
      if (step * 5 * 5 >= most)
        return step * 5;
      step *= 10;
    }
  return step;
}

static PangoLayout *
layout_of (GtkWidget *area, const char *text, int *width, int *height)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (area, text);

  pango_layout_get_pixel_size (layout, width, height);
  return layout;
}

static void
show_at (cairo_t *cr, PangoLayout *layout, double x, double y)
{
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

/* The heights of one text line and of a bar's row. */
static void
metrics (GtkWidget *area, int *line, int *row)
{
  g_object_unref (layout_of (area, "0123456789", NULL, line));
  *row = MAX (24, *line + 10);
}

static void
draw_chart (GtkDrawingArea *drawing, cairo_t *cr, int width, int height, gpointer data)
{
  GtkWidget *area = GTK_WIDGET (drawing);
  Chart *chart = chart_get (area);
  GtkStyleContext *style = gtk_widget_get_style_context (area);
  GdkRGBA fg, bar;
  guint64 most = 1, step;
  int line, row, label_w = 0, count_w = 0, w, h;
  double plot_x, plot_w, top, bottom;
  g_autoptr (PangoLayout) heading = NULL;
  g_autoptr (PangoLayout) axis = NULL;

  if (chart == NULL || chart->n_buckets == 0)
    return;
  gtk_style_context_get_color (style, &fg);
  if (!gtk_style_context_lookup_color (style, "accent_bg_color", &bar))
    bar = fg;
  metrics (area, &line, &row);

  for (guint b = 0; b < chart->n_buckets; b++)
    {
      g_autofree char *label = ddb_keys_bucket_label (b);
      g_autofree char *count = dy_format_count (chart->buckets[b]);
      g_object_unref (layout_of (area, label, &w, &h));
      label_w = MAX (label_w, w);
      g_object_unref (layout_of (area, count, &w, &h));
      count_w = MAX (count_w, w);
      most = MAX (most, chart->buckets[b]);
    }
  /* TRANSLATORS: the histogram's vertical axis: its rows are ranges of items in a partition */
  heading = layout_of (area, _ ("Items per partition"), &w, &h);
  label_w = MAX (label_w, w);
  plot_x = PAD + label_w + GAP;
  plot_w = MAX (40.0, width - plot_x - GAP - count_w - PAD);
  top = PAD + line + 4;
  bottom = top + (double) chart->n_buckets * row;
  step = tick_step (most);

  /* the axis heading, over the labels */
  gdk_cairo_set_source_rgba (cr, &fg);
  show_at (cr, heading, PAD, PAD);

  /* grid lines and ticks */
  for (guint64 t = 0; t <= most; t += step)
    {
      g_autofree char *text = dy_format_count (t);
      g_autoptr (PangoLayout) tick = layout_of (area, text, &w, &h);
      double x = floor (plot_x + plot_w * (double) t / (double) most) + 0.5;

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.15);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x, top);
      cairo_line_to (cr, x, bottom + 4);
      cairo_stroke (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.7);
      show_at (cr, tick, CLAMP (x - w / 2.0, plot_x - w / 2.0, width - PAD - w), bottom + 6);
      if (t > G_MAXUINT64 - step)
        break;
    }
  /* TRANSLATORS: the histogram's horizontal axis: how many partitions are in each range */
  axis = layout_of (area, _ ("Partitions"), &w, &h);
  gdk_cairo_set_source_rgba (cr, &fg);
  show_at (cr, axis, plot_x + (plot_w - w) / 2, bottom + 6 + line + 4);

  /* the bars, each with its range on the left and its count at its end */
  for (guint b = 0; b < chart->n_buckets; b++)
    {
      g_autofree char *label = ddb_keys_bucket_label (b);
      g_autofree char *count = dy_format_count (chart->buckets[b]);
      g_autoptr (PangoLayout) l1 = layout_of (area, label, &w, &h);
      g_autoptr (PangoLayout) l2 = NULL;
      double y = top + (double) b * row;
      double len = plot_w * (double) chart->buckets[b] / (double) most;

      gdk_cairo_set_source_rgba (cr, &fg);
      show_at (cr, l1, plot_x - GAP - w, y + (row - h) / 2.0);
      if (chart->buckets[b] > 0)
        {
          gdk_cairo_set_source_rgba (cr, &bar);
          cairo_rectangle (cr, plot_x, y + 4, MAX (2.0, len), row - 8);
          cairo_fill (cr);
        }
      l2 = layout_of (area, count, &w, &h);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue,
                             fg.alpha * (chart->buckets[b] > 0 ? 1.0 : 0.55));
      show_at (cr, l2, plot_x + MAX (2.0, len) + 6, y + (row - h) / 2.0);
    }

  /* the axis line */
  gdk_cairo_set_source_rgba (cr, &fg);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, floor (plot_x) + 0.5, top);
  cairo_line_to (cr, floor (plot_x) + 0.5, bottom);
  cairo_line_to (cr, plot_x + plot_w, bottom);
  cairo_stroke (cr);
  (void) height;
}

GtkWidget *
dy_keys_chart_new (void)
{
  GtkWidget *area = gtk_drawing_area_new ();

  g_object_set_data_full (G_OBJECT (area), "dy-keys-chart", g_new0 (Chart, 1),
                          (GDestroyNotify) chart_free);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw_chart, NULL, NULL);
  gtk_widget_set_hexpand (area, TRUE);
  gtk_widget_set_size_request (area, 360, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (area), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _ ("Histogram of items per partition"), -1);
  return area;
}

void
dy_keys_chart_set_buckets (GtkWidget *area, const guint64 *buckets, guint n_buckets)
{
  Chart *chart = chart_get (area);
  GString *description = g_string_new (NULL);
  int line, row;

  g_return_if_fail (chart != NULL);
  g_free (chart->buckets);
  chart->buckets = g_memdup2 (buckets, sizeof (guint64) * n_buckets);
  chart->n_buckets = n_buckets;
  metrics (area, &line, &row);
  gtk_drawing_area_set_content_height (
      GTK_DRAWING_AREA (area),
      n_buckets == 0 ? 0 : PAD + line + 4 + (int) n_buckets * row + 6 + line + 4 + line + PAD);
  /* what the bars say, for a screen reader */
  for (guint b = 0; b < n_buckets; b++)
    {
      g_autofree char *label = ddb_keys_bucket_label (b);
      g_autofree char *count = dy_format_count (buckets[b]);

      g_string_append_printf (
          description,
          /* TRANSLATORS: one bar of the histogram, e.g. "4-7 items: 11
           * partitions" */
          g_dngettext (NULL, "%s items: %s partition; ", "%s items: %s partitions; ", buckets[b]),
          label, count);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (area), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  description->str, -1);
  g_string_free (description, TRUE);
  gtk_widget_queue_draw (area);
}
