// UpdateItem Codegen on http://127.0.0.1:8000 (profile dev, region eu-west-1)
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
            UpdateItemRequest request = UpdateItemRequest.builder()
                .tableName("Codegen")
                .key(Map.ofEntries(
                    Map.entry("pk", AttributeValue.builder().s("p#1").build()),
                    Map.entry("sk", AttributeValue.builder().n("1").build())
                ))
                .updateExpression("SET #n = :v, #s = :s ADD #c :big, #t :more REMOVE #e")
                .conditionExpression("#n = :old AND size(#t) > :zero")
                .expressionAttributeNames(Map.ofEntries(
                    Map.entry("#n", "nasty"),
                    Map.entry("#s", "Status"),
                    Map.entry("#t", "tags"),
                    Map.entry("#c", "count"),
                    Map.entry("#e", "empty")
                ))
                .expressionAttributeValues(Map.ofEntries(
                    Map.entry(":v", AttributeValue.builder()
                        .s("q'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007f v2")
                        .build()),
                    Map.entry(":s", AttributeValue.builder().s("`$HOME`").build()),
                    Map.entry(":big", AttributeValue.builder()
                        .n("12345678901234567890123456789012345678")
                        .build()),
                    Map.entry(":more", AttributeValue.builder().ss(List.of("new ש")).build()),
                    Map.entry(":old", AttributeValue.builder()
                        .s("q'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007f")
                        .build()),
                    Map.entry(":zero", AttributeValue.builder().n("0").build())
                ))
                .returnValues("ALL_NEW")
                .build();
            UpdateItemResponse response = client.updateItem(request);
            System.out.println(response);
        }
    }
}
