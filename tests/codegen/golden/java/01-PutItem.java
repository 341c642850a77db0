// PutItem Codegen on http://127.0.0.1:8000 (profile dev, region eu-west-1)
// Needs software.amazon.awssdk:dynamodb (the AWS SDK for Java v2) on the class path.
import java.net.URI;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.*;

public class DynamoDbRequest {
    public static void main(String[] args) throws InterruptedException {
        try (DynamoDbClient client = DynamoDbClient.builder()
                .region(Region.of("eu-west-1"))
                .credentialsProvider(ProfileCredentialsProvider.create("dev"))
                .endpointOverride(URI.create("http://127.0.0.1:8000"))
                .build()) {
            PutItemRequest request = PutItemRequest.builder()
                .tableName("Codegen")
                .item(Map.<String, AttributeValue>ofEntries(
                    Map.entry("pk", AttributeValue.builder().s("p#1").build()),
                    Map.entry("sk", AttributeValue.builder().n("2.5").build()),
                    Map.entry("nasty", AttributeValue.builder()
                        .s("q'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007f")
                        .build()),
                    Map.entry("empty", AttributeValue.builder().s("").build()),
                    Map.entry("big", AttributeValue.builder()
                        .n("12345678901234567890123456789012345678")
                        .build()),
                    Map.entry("tiny", AttributeValue.builder().n("1E-130").build()),
                    Map.entry("huge", AttributeValue.builder()
                        .n("-9.9999999999999999999999999999999999999E+125")
                        .build()),
                    Map.entry("bytes", AttributeValue.builder()
                        .b(SdkBytes.fromByteArray(Base64.getDecoder().decode("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn+AgYKDhIWGh4iJiouMjY6PkJGSk5SVlpeYmZqbnJ2en6ChoqOkpaanqKmqq6ytrq+wsbKztLW2t7i5uru8vb6/wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj5OXm5+jp6uvs7e7v8PHy8/T19vf4+fr7/P3+/w==")))
                        .build()),
                    Map.entry("nobytes", AttributeValue.builder()
                        .b(SdkBytes.fromByteArray(Base64.getDecoder().decode("")))
                        .build()),
                    Map.entry("flag", AttributeValue.builder().bool(false).build()),
                    Map.entry("nothing", AttributeValue.builder().nul(true).build()),
                    Map.entry("tags", AttributeValue.builder()
                        .ss(List.of(
                            "a",
                            "",
                            "q'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007f",
                            "🚀"
                        ))
                        .build()),
                    Map.entry("nums", AttributeValue.builder()
                        .ns(List.of("12345678901234567890123456789012345678", "1E-130", "0", "-1.5"))
                        .build()),
                    Map.entry("blobs", AttributeValue.builder()
                        .bs(List.of(
                            SdkBytes.fromByteArray(Base64.getDecoder().decode("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn+AgYKDhIWGh4iJiouMjY6PkJGSk5SVlpeYmZqbnJ2en6ChoqOkpaanqKmqq6ytrq+wsbKztLW2t7i5uru8vb6/wMHCw8TFxsfIycrLzM3Oz9DR0tPU1dbX2Nna29zd3t/g4eLj5OXm5+jp6uvs7e7v8PHy8/T19vf4+fr7/P3+/w==")),
                            SdkBytes.fromByteArray(Base64.getDecoder().decode("AA==")),
                            SdkBytes.fromByteArray(Base64.getDecoder().decode("/w=="))
                        ))
                        .build()),
                    Map.entry("a.b", AttributeValue.builder().s("dot").build()),
                    Map.entry("order-id", AttributeValue.builder().s("dash").build()),
                    Map.entry("Status", AttributeValue.builder().s("reserved").build()),
                    Map.entry("it's \"quoted\" \\", AttributeValue.builder().s("name").build()),
                    Map.entry("__proto__", AttributeValue.builder()
                        .m(Map.ofEntries(Map.entry("x", AttributeValue.builder().n("1").build())))
                        .build()),
                    Map.entry("deep", AttributeValue.builder()
                        .l(List.of(
                            AttributeValue.builder()
                                .m(Map.ofEntries(
                                    Map.entry("k29", AttributeValue.builder()
                                        .l(List.of(
                                            AttributeValue.builder()
                                                .m(Map.ofEntries(
                                                    Map.entry("k27", AttributeValue.builder()
                                                        .l(List.of(
                                                            AttributeValue.builder()
                                                                .m(Map.ofEntries(
                                                                    Map.entry("k25", AttributeValue.builder()
                                                                        .l(List.of(
                                                                            AttributeValue.builder()
                                                                                .m(Map.ofEntries(
                                                                                    Map.entry("k23", AttributeValue.builder()
                                                                                        .l(List.of(
                                                                                            AttributeValue.builder()
                                                                                                .m(Map.ofEntries(
                                                                                                    Map.entry("k21", AttributeValue.builder()
                                                                                                        .l(List.of(
                                                                                                            AttributeValue.builder()
                                                                                                                .m(Map.ofEntries(
                                                                                                                    Map.entry("k19", AttributeValue.builder()
                                                                                                                        .l(List.of(
                                                                                                                            AttributeValue.builder()
                                                                                                                                .m(Map.ofEntries(
                                                                                                                                    Map.entry("k17", AttributeValue.builder()
                                                                                                                                        .l(List.of(
                                                                                                                                            AttributeValue.builder()
                                                                                                                                                .m(Map.ofEntries(
                                                                                                                                                    Map.entry("k15", AttributeValue.builder()
                                                                                                                                                        .l(List.of(
                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                .m(Map.ofEntries(
                                                                                                                                                                    Map.entry("k13", AttributeValue.builder()
                                                                                                                                                                        .l(List.of(
                                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                                .m(Map.ofEntries(
                                                                                                                                                                                    Map.entry("k11", AttributeValue.builder()
                                                                                                                                                                                        .l(List.of(
                                                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                                                .m(Map.ofEntries(
                                                                                                                                                                                                    Map.entry("k9", AttributeValue.builder()
                                                                                                                                                                                                        .l(List.of(
                                                                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                                                                .m(Map.ofEntries(
                                                                                                                                                                                                                    Map.entry("k7", AttributeValue.builder()
                                                                                                                                                                                                                        .l(List.of(
                                                                                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                                                                                .m(Map.ofEntries(
                                                                                                                                                                                                                                    Map.entry("k5", AttributeValue.builder()
                                                                                                                                                                                                                                        .l(List.of(
                                                                                                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                                                                                                .m(Map.ofEntries(
                                                                                                                                                                                                                                                    Map.entry("k3", AttributeValue.builder()
                                                                                                                                                                                                                                                        .l(List.of(
                                                                                                                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                                                                                                                .m(Map.ofEntries(
                                                                                                                                                                                                                                                                    Map.entry("k1", AttributeValue.builder()
                                                                                                                                                                                                                                                                        .l(List.of(
                                                                                                                                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                                                                                                                                .s("bottom q'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007f")
                                                                                                                                                                                                                                                                                .build(),
                                                                                                                                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                                                                                                                                .n("0")
                                                                                                                                                                                                                                                                                .build()
                                                                                                                                                                                                                                                                        ))
                                                                                                                                                                                                                                                                        .build())
                                                                                                                                                                                                                                                                ))
                                                                                                                                                                                                                                                                .build(),
                                                                                                                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                                                                                                                .n("2")
                                                                                                                                                                                                                                                                .build()
                                                                                                                                                                                                                                                        ))
                                                                                                                                                                                                                                                        .build())
                                                                                                                                                                                                                                                ))
                                                                                                                                                                                                                                                .build(),
                                                                                                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                                                                                                .n("4")
                                                                                                                                                                                                                                                .build()
                                                                                                                                                                                                                                        ))
                                                                                                                                                                                                                                        .build())
                                                                                                                                                                                                                                ))
                                                                                                                                                                                                                                .build(),
                                                                                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                                                                                .n("6")
                                                                                                                                                                                                                                .build()
                                                                                                                                                                                                                        ))
                                                                                                                                                                                                                        .build())
                                                                                                                                                                                                                ))
                                                                                                                                                                                                                .build(),
                                                                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                                                                .n("8")
                                                                                                                                                                                                                .build()
                                                                                                                                                                                                        ))
                                                                                                                                                                                                        .build())
                                                                                                                                                                                                ))
                                                                                                                                                                                                .build(),
                                                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                                                .n("10")
                                                                                                                                                                                                .build()
                                                                                                                                                                                        ))
                                                                                                                                                                                        .build())
                                                                                                                                                                                ))
                                                                                                                                                                                .build(),
                                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                                .n("12")
                                                                                                                                                                                .build()
                                                                                                                                                                        ))
                                                                                                                                                                        .build())
                                                                                                                                                                ))
                                                                                                                                                                .build(),
                                                                                                                                                            AttributeValue.builder()
                                                                                                                                                                .n("14")
                                                                                                                                                                .build()
                                                                                                                                                        ))
                                                                                                                                                        .build())
                                                                                                                                                ))
                                                                                                                                                .build(),
                                                                                                                                            AttributeValue.builder()
                                                                                                                                                .n("16")
                                                                                                                                                .build()
                                                                                                                                        ))
                                                                                                                                        .build())
                                                                                                                                ))
                                                                                                                                .build(),
                                                                                                                            AttributeValue.builder()
                                                                                                                                .n("18")
                                                                                                                                .build()
                                                                                                                        ))
                                                                                                                        .build())
                                                                                                                ))
                                                                                                                .build(),
                                                                                                            AttributeValue.builder()
                                                                                                                .n("20")
                                                                                                                .build()
                                                                                                        ))
                                                                                                        .build())
                                                                                                ))
                                                                                                .build(),
                                                                                            AttributeValue.builder()
                                                                                                .n("22")
                                                                                                .build()
                                                                                        ))
                                                                                        .build())
                                                                                ))
                                                                                .build(),
                                                                            AttributeValue.builder()
                                                                                .n("24")
                                                                                .build()
                                                                        ))
                                                                        .build())
                                                                ))
                                                                .build(),
                                                            AttributeValue.builder().n("26").build()
                                                        ))
                                                        .build())
                                                ))
                                                .build(),
                                            AttributeValue.builder().n("28").build()
                                        ))
                                        .build())
                                ))
                                .build(),
                            AttributeValue.builder().n("30").build()
                        ))
                        .build()),
                    Map.entry("list", AttributeValue.builder()
                        .l(List.of(
                            AttributeValue.builder().s("x").build(),
                            AttributeValue.builder().n("2").build(),
                            AttributeValue.builder().m(Map.ofEntries()).build(),
                            AttributeValue.builder().l(List.of()).build(),
                            AttributeValue.builder().nul(true).build()
                        ))
                        .build())
                ))
                .conditionExpression("attribute_not_exists(#n)")
                .expressionAttributeNames(Map.ofEntries(Map.entry("#n", "nasty")))
                .build();
            PutItemResponse response = client.putItem(request);
            System.out.println(response);
        }
    }
}
