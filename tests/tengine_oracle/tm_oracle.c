/* tm_oracle: load a .tmfile with Tengine's own loader, run it, and report what Tengine made of it.
 *
 * usage: tm_oracle MODEL.tmfile OUTDIR [INPUT.bin D0,D1,... ...]
 *
 * Each INPUT.bin holds the float32 values (little endian, C order) of one graph input, in the order of the graph's
 * input nodes, with the dims after it. Without inputs only the loader and shape inference run (no values).
 * Printed on stdout, one record a line, tab-separated:
 *   node    INDEX NAME OP            every node of the loaded graph, in Tengine's order
 *   dims    NAME D0,D1,...           every node output's dims after Tengine's shape inference (prerun)
 *   output  K NAME D0,D1,...         graph output K; its float32 values go to OUTDIR/output_K.bin
 * and a last line "ok". Exit 1 (message on stderr) when Tengine cannot load, prerun or run the model.
 * Build: see tests/tengine_oracle/README.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tengine/c_api.h"

#define MAX_DIMS 8

static void print_dims(const int* dims, int n)
{
    for (int i = 0; i < n; i++)
        printf(i ? ",%d" : "%d", dims[i]);
}

static int read_floats(const char* path, float* out, size_t count)
{
    FILE* f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t got = fread(out, sizeof(float), count, f);
    fclose(f);
    return got == count ? 0 : -1;
}

int main(int argc, char* argv[])
{
    if (argc < 3 || (argc - 3) % 2)
    {
        fprintf(stderr, "usage: %s MODEL.tmfile OUTDIR [INPUT.bin D0,D1,... ...]\n", argv[0]);
        return 2;
    }
    set_log_level(LOG_ERR);
    if (init_tengine() != 0)
    {
        fprintf(stderr, "error: init_tengine failed\n");
        return 1;
    }
    graph_t graph = create_graph(NULL, "tengine", argv[1]);
    if (!graph)
    {
        fprintf(stderr, "error: Tengine cannot load %s\n", argv[1]);
        return 1;
    }
    int inputs = (argc - 3) / 2;
    float** buffers = calloc(inputs ? inputs : 1, sizeof(float*));
    for (int k = 0; k < inputs; k++)
    {
        int dims[MAX_DIMS], n = 0;
        size_t count = 1;
        for (char* p = strtok(argv[4 + 2 * k], ","); p && n < MAX_DIMS; p = strtok(NULL, ","))
        {
            dims[n] = atoi(p);
            count *= (size_t)dims[n++];
        }
        tensor_t t = get_graph_input_tensor(graph, k, 0);
        buffers[k] = malloc(count * sizeof(float));
        if (!t || set_tensor_shape(t, dims, n) < 0 || read_floats(argv[3 + 2 * k], buffers[k], count) < 0
            || set_tensor_buffer(t, buffers[k], (int)(count * sizeof(float))) < 0)
        {
            fprintf(stderr, "error: cannot set graph input %d from %s\n", k, argv[3 + 2 * k]);
            return 1;
        }
    }
    if (prerun_graph(graph) < 0)
    {
        fprintf(stderr, "error: Tengine cannot prerun %s (shape inference or kernel set-up failed)\n", argv[1]);
        return 1;
    }
    int nodes = get_graph_node_num(graph);
    for (int i = 0; i < nodes; i++)
    {
        node_t node = get_graph_node_by_idx(graph, i);
        printf("node\t%d\t%s\t%s\n", i, get_node_name(node), get_node_op(node));
        for (int o = 0; o < get_node_output_number(node); o++)
        {
            tensor_t t = get_node_output_tensor(node, o);
            int dims[MAX_DIMS];
            int n = get_tensor_shape(t, dims, MAX_DIMS);
            printf("dims\t%s\t", get_tensor_name(t));
            print_dims(dims, n > 0 ? n : 0);
            printf("\n");
        }
    }
    if (inputs)
    {
        if (run_graph(graph, 1) < 0)
        {
            fprintf(stderr, "error: Tengine cannot run %s\n", argv[1]);
            return 1;
        }
        for (int k = 0; k < get_graph_output_node_number(graph); k++)
        {
            tensor_t t = get_graph_output_tensor(graph, k, 0);
            int dims[MAX_DIMS];
            int n = get_tensor_shape(t, dims, MAX_DIMS);
            printf("output\t%d\t%s\t", k, get_tensor_name(t));
            print_dims(dims, n > 0 ? n : 0);
            printf("\n");
            char path[4096];
            snprintf(path, sizeof path, "%s/output_%d.bin", argv[2], k);
            FILE* f = fopen(path, "wb");
            if (!f || get_tensor_data_type(t) != TENGINE_DT_FP32)
            {
                fprintf(stderr, "error: cannot write output %d (float32) to %s\n", k, path);
                return 1;
            }
            fwrite(get_tensor_buffer(t), 1, (size_t)get_tensor_buffer_size(t), f);
            fclose(f);
        }
    }
    printf("ok\n");
    postrun_graph(graph);
    destroy_graph(graph);
    release_tengine();
    return 0;
}
